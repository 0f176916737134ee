// Type-checks against missions.d.mts, generated at test time: must compile.
import type { Mission, RunResult, Task } from "@temporal/agent-sdk";
import missionsDefault, { audit_only, missions, nightly_backup, proto_task } from "./missions.mjs";

const task: Task = () => undefined;

export const results: Promise<RunResult>[] = [
  nightly_backup.run({ tasks: { snapshot_db: task, upload_offsite: task, notify_ops: task }, carbon: 100 }),
  missions.default.run({ tasks: { delete: task } }),
  missionsDefault.nightly_backup.run({ tasks: { snapshot_db: task, upload_offsite: task, notify_ops: task } }),
  // A task named __proto__, as a plain key (the runtime takes the prototype it sets) or a computed one.
  proto_task.run({ tasks: { __proto__: task } }),
  proto_task.run({ tasks: { ["__proto__"]: task } }),
  // A mission that executes no task runs without tasks.
  audit_only.run(),
  missions.audit_only.run({ carbon: 100 }),
];

// Typed missions are still missions: the loose type accepts them.
export const all: readonly Mission[] = Object.values(missions);
export const one: Mission = nightly_backup;
