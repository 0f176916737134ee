// Type-checks against missions.d.mts, generated at test time: must fail.
import type { Task } from "@temporal/agent-sdk";
import { missions, nightly_backup } from "./missions.mjs";

const task: Task = () => undefined;

// upload_offsite is missing.
nightly_backup.run({ tasks: { snapshot_db: task, notify_ops: task }, carbon: 100 });
// snapshot_db is misspelt.
nightly_backup.run({ tasks: { snapshot_bd: task, upload_offsite: task, notify_ops: task } });
// delete is misspelt.
missions.default.run({ tasks: { delte: task } });
// A name no mission executes.
missions.default.run({ tasks: { delete: task, unrelated_task_name: task } });
// Tasks are required when the mission executes any.
nightly_backup.run();
