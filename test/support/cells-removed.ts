// Set-up file of the live tests (vitest.config.ts): a probe removes its cell after returning its
// observation, and a test worker that ends before that removal finishes would leave the cell in
// the temp directory. Each test file waits for its cells to be gone.
import { afterAll } from "vitest";

import { cellsRemoved } from "../../probes/cell/cell.js";

afterAll(cellsRemoved);
