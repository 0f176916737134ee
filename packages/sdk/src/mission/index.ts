export { defineMission } from "./define-mission.js";
export { AnchorFailedError, MissingTasksError, TaskFailedError } from "./errors.js";
export type {
  Decision,
  DenyReason,
  EvaluateOptions,
  Measure,
  Mission,
  MissionMeasures,
  MissionRequirements,
  MissionSpec,
  MissionStep,
  RunArguments,
  RunOptions,
  RunOptionsBase,
  RunResult,
  Task,
  TaskMap,
  Threshold,
  Verdict,
} from "./types.js";
