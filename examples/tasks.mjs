// Task functions for the example missions: `temporalc run --tasks` passes
// every named export to the mission by name. Each task receives the phase
// context (ctx) the verdict was decided on.
const say = (what) => (ctx) => console.log(`  … ${what} (phase ${ctx.phase_deg.toFixed(2)}° in zone Z${ctx.swt_zone})`);

export const snapshot_db = say("snapshotting the database");
export const upload_offsite = say("uploading the snapshot off-site");
export const fetch_dataset = say("fetching the training set");
export const train_epoch = say("training one epoch");
export const publish_checkpoint = say("publishing the checkpoint");
export const defer_training = say("deferring training to a cleaner hour");
export const rebalance = say("rebalancing the portfolio");
export const build_report = say("building the end-of-day report");
export const email_report = say("emailing the report");
export const rotate_keys = say("rotating credentials");
export const vacuum = say("vacuuming the database");
export const alert_on_call = say("paging the on-call engineer");
export const ping = say("ping");
