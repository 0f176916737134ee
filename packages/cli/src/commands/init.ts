import { lstat, readFile, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { describeIoError, makeDirectory, writeFileDurably } from "@temporal/agent-sdk/node";
import { EXIT_OK, UsageError } from "../errors.js";

const MISSION = `// A starter mission: back up at night, in UTC+2, and leave a signed
// receipt either way. docs/language.md describes everything you can require.
@temporal v4.6.2
@anchor Z1 // read the phase in zone Z1, UTC+2 all year (an IANA name such as Europe/Paris follows daylight saving)

mission nightly_backup {
  require phase [20:00, 02:00] // the same as [300, 30]: wraps through midnight
  on ALLOW {
    execute snapshot_db
    execute upload_offsite
    anchor TSAE -> clockchain
  }
  on DENY {
    anchor TSAE -> clockchain
  }
}
`;

const TASKS = `// The tasks the missions execute: \`temporalc run --tasks tasks.mjs\` passes
// each named export to the mission by name, with the phase context it was
// allowed on.
export async function snapshot_db(ctx) {
  console.log(\`  snapshotting the database (phase \${ctx.phase_deg.toFixed(2)}°)\`);
}

export async function upload_offsite() {
  console.log("  uploading the snapshot off-site");
}
`;

/** Receipts, keys and the ledger live here (the default home of \`temporalc run\`); they are not source. */
const IGNORED = ".temporal/";
const MISSION_FILE = "backup.mission";
const TASKS_FILE = "tasks.mjs";

/**
 * Writes a starter project into `dir`: a mission, its tasks and a
 * `.gitignore` entry for the home. Refuses, writing nothing, when the
 * mission or the tasks file already exists.
 */
export async function runInit(dir: string): Promise<number> {
  await makeDirectory(dir).catch((error: unknown) => {
    // makeDirectory's error names the folder itself (describeIoError gives its message as it is).
    throw new UsageError("WRITE_FAILED", describeIoError(error));
  });
  const files = [
    [MISSION_FILE, MISSION],
    [TASKS_FILE, TASKS],
  ] as const;
  const existing = [];
  for (const [name] of files) if (await exists(join(dir, name))) existing.push(join(dir, name));
  if (existing.length > 0)
    throw new UsageError(
      "FILE_EXISTS",
      `${existing.join(" and ")} already exist${existing.length === 1 ? "s" : ""}; init never overwrites files, so move ${existing.length === 1 ? "it" : "them"} away or choose another folder`,
    );
  for (const [name, contents] of files) {
    // `wx`: should a file appear meanwhile, fail rather than overwrite it.
    await writeFile(join(dir, name), contents, { flag: "wx" }).catch((error: unknown) => {
      throw new UsageError("WRITE_FAILED", `cannot write ${join(dir, name)}: ${describeIoError(error)}`);
    });
  }
  const gitignore = await addIgnoreEntry(join(dir, ".gitignore"));

  const into = relative(process.cwd(), dir);
  const cd = into === "" ? "" : `cd ${shellQuote(into)} && `;
  process.stdout.write(
    [
      `created ${join(dir, MISSION_FILE)}, ${join(dir, TASKS_FILE)}${gitignore ? ` and the ${IGNORED} entry in ${join(dir, ".gitignore")}` : ""}`,
      "",
      "next, run the mission now (a DENY by day, a backup at night; either way a signed receipt in .temporal/):",
      `  ${cd}temporalc run ${MISSION_FILE} --tasks ./${TASKS_FILE}`,
      "",
    ].join("\n"),
  );
  return EXIT_OK;
}

/** Adds `.temporal/` to the ignore file unless it is there; returns whether it added it. */
async function addIgnoreEntry(path: string): Promise<boolean> {
  let current = "";
  try {
    current = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw new UsageError("FILE_UNREADABLE", `cannot read ${path}: ${describeIoError(error)}`);
  }
  const lines = current.split(/\r?\n/).map((line) => line.trim());
  if (lines.includes(IGNORED) || lines.includes(".temporal") || lines.includes("/.temporal/")) return false;
  const separator = current === "" || current.endsWith("\n") ? "" : "\n";
  await writeFileDurably(path, `${current}${separator}${IGNORED}\n`, { mode: 0o666 }).catch((error: unknown) => {
    throw new UsageError("WRITE_FAILED", `cannot write ${path}: ${describeIoError(error)}`);
  });
  return true;
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => error.code !== "ENOENT",
  );
}

/** A path as one shell word: unchanged when it is plain, else in single quotes. */
function shellQuote(path: string): string {
  return /^[\w./-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`;
}
