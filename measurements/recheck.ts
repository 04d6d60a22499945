// A record rechecked against the protocol it claims to measure: the verdicts come from its
// spawns' observations through the verdict rule, never from the record's own verdict fields.
import { evaluatePredicate } from "../prereg/evaluate.js";
import { predicateLabel } from "../prereg/predicate.js";
import type { Protocol } from "../prereg/protocol.js";
import type { Observation } from "../probes/contracts/observation.js";
import { judgeOne } from "./agreement-pass.js";
import type { MeasurementRecord, SpawnRecord, Verdict } from "./record.js";
import { installFactProblems } from "./record-facts.js";
import { armVerdict, countedFaults, overallVerdict, spawnStatus } from "./verdict.js";

/** What recomputing a record gave: its verdict, and every way the record disagrees with it. */
export interface Recheck {
  /** The overall verdict recomputed from the spawns (inconclusive when the record does not fit). */
  verdict: Verdict;
  /** Why the record is not evidence of the protocol as registered; empty when it holds. */
  problems: string[];
}

// A spawn as the verdict rule sees it, from its observation alone.
function recomputeSpawn(
  spawn: SpawnRecord,
  expect: Protocol["arms"][number]["expect"],
  version: string,
  where: string,
  problems: string[],
  /** The same-numbered spawn's observation in another arm (`agrees-with`), null when none. */
  peerOf: (arm: string) => Observation | null,
): SpawnRecord {
  const observation = spawn.observation;
  if (observation === null) {
    // The probe itself failed: a fault whatever the record says.
    return {
      ...spawn,
      status: "fault",
      faults: spawn.faults.length > 0 ? spawn.faults : ["no observation"],
    };
  }
  const labels = expect.map(predicateLabel);
  const recorded = spawn.predicates.map((p) => p.label);
  if (JSON.stringify(labels) !== JSON.stringify(recorded)) {
    problems.push(
      `${where}: predicates [${recorded.join(", ")}], the protocol registers [${labels.join(", ")}]`,
    );
  }
  const agreementFaults: string[] = [];
  const predicates = expect.map((p, i) => {
    const { fault, ...result } =
      p.kind === "agrees-with"
        ? judgeOne(p, spawn.index, observation, peerOf(p.arm))
        : { ...evaluatePredicate(p, observation), fault: null };
    if (fault !== null) agreementFaults.push(fault);
    if (spawn.predicates[i] !== undefined && spawn.predicates[i].pass !== result.pass) {
      problems.push(
        `${where}: "${labels[i] ?? ""}" is recorded as ${spawn.predicates[i].pass ? "passed" : "failed"}, its observation says ${result.pass ? "passed" : "failed"}`,
      );
    }
    return { label: labels[i] ?? "", ...result };
  });
  // A refusal the arm predicts is its observation, not a fault (verdict.ts countedFaults).
  const faults = [
    ...new Set([
      ...countedFaults(spawn.faults, observation, expect),
      ...countedFaults(observation.faults, observation, expect),
      ...agreementFaults,
      ...(observation.cli.version === version
        ? []
        : [`ran ${observation.cli.version}, not ${version}`]),
    ]),
  ];
  const status = spawnStatus(
    faults,
    predicates.map((p) => p.pass),
  );
  if (status !== spawn.status) {
    problems.push(`${where}: recorded ${spawn.status}, recomputed ${status}`);
  }
  return { ...spawn, status, faults, predicates };
}

/**
 * Recomputes a record's verdicts from its spawns with the verdict rule and checks that it
 * measures `protocol` as registered: the same CLI, the same arms in order, the same predicates,
 * at least `protocol.spawns` spawns per arm, and spawns that ran the install of its CLI version.
 */
export function recheckRecord(record: MeasurementRecord, protocol: Protocol): Recheck {
  const problems: string[] = [];
  if (record.protocol.id !== protocol.id || record.protocol.slug !== protocol.slug) {
    problems.push(
      `measures protocol ${record.protocol.id}-${record.protocol.slug}, not ${protocol.id}-${protocol.slug}`,
    );
  }
  if (record.cli.name !== protocol.cli.name) {
    problems.push(`ran ${record.cli.name}, the protocol registers ${protocol.cli.name}`);
  }
  problems.push(...installFactProblems(record));
  const ids = record.arms.map((a) => a.id);
  const registered = protocol.arms.map((a) => a.id);
  if (JSON.stringify(ids) !== JSON.stringify(registered)) {
    problems.push(`arms [${ids.join(", ")}], the protocol registers [${registered.join(", ")}]`);
  }
  const arms = protocol.arms.map((arm) => {
    const found = record.arms.find((a) => a.id === arm.id);
    if (found === undefined) return { verdict: "inconclusive" as const };
    if (found.workspaceTrusted !== undefined && found.workspaceTrusted !== arm.fixture.trust) {
      problems.push(
        `arm ${arm.id}: recorded ${found.workspaceTrusted ? "a trusted" : "an untrusted"} workspace, the protocol registers ${arm.fixture.trust ? "a trusted" : "an untrusted"} one`,
      );
    }
    if (found.spawns.length < protocol.spawns) {
      problems.push(
        `arm ${arm.id}: ${found.spawns.length} spawn(s), the protocol registers ${protocol.spawns}`,
      );
    }
    const peerOf = (index: number) => (id: string) =>
      record.arms.find((a) => a.id === id)?.spawns.find((s) => s.index === index)?.observation ??
      null;
    const spawns = found.spawns.map((s, i) =>
      recomputeSpawn(
        s,
        arm.expect,
        record.cli.version,
        `arm ${arm.id} spawn ${i + 1}`,
        problems,
        peerOf(s.index),
      ),
    );
    const { verdict } = armVerdict(spawns);
    if (verdict !== found.verdict) {
      problems.push(`arm ${arm.id}: recorded ${found.verdict}, its spawns give ${verdict}`);
    }
    return { verdict };
  });
  const verdict = overallVerdict(arms);
  if (verdict !== record.verdict) {
    problems.push(`recorded ${record.verdict}, its arms give ${verdict}`);
  }
  return { verdict: problems.length > 0 ? "inconclusive" : verdict, problems };
}
