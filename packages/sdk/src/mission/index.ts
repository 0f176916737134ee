export { defineMission } from "./define-mission.js";
export { signsZtt } from "./ztt.js";
export { missionNextOpenAll } from "./zone.js";
export { AnchorFailedError, AuthorityUnavailableError, MissingTasksError, MissionAbortedError, TaskFailedError } from "./errors.js";
export type {
  Decision,
  DenyReason,
  EvaluateOptions,
  Measure,
  MeasureFailure,
  MeasureFailureReason,
  MeasureName,
  Mission,
  MissionMeasures,
  MissionRequirements,
  MissionSpec,
  MissionStep,
  MissionZone,
  RunArguments,
  RunOptions,
  RunOptionsBase,
  RunResult,
  Task,
  TaskContext,
  TaskMap,
  Threshold,
  Verdict,
} from "./types.js";
