// Set-up file of the tests (vitest.config.ts): a probe removes its cell after returning its
// observation, and a test worker that ends before that removal finishes would leave the cell in
// the temp directory. Each test file waits for its cells to be gone, and removes the sandbox's
// view template its spawns shared (a worker ends without the exit hook that would).
import { afterAll } from "vitest";

import { cellsRemoved } from "../../probes/cell/cell.js";
import { removeViewTemplate } from "../../probes/isolation/view.js";

afterAll(cellsRemoved);
afterAll(removeViewTemplate);
