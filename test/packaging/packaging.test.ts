// The packages as users get them: every workspace package is packed, the
// tarballs are installed into a fresh project outside the repository, and
// the documented ways of using them run there. Takes about two minutes on a
// loaded 2-core machine (npm install and three full tsc checks dominate); it packs the builds that
// `npm test`'s pretest has just made, without `prepack`, so it never rewrites
// dist/ while other test files read it.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packAll } from "../../scripts/pack.mjs";
import { playgroundUrl } from "../support/playground-url.mjs";
import { createProject, repoRoot, repoVersionOf, run, succeed, writeFiles } from "./fresh-project.js";

/** Package name -> its folder under packages/. */
const packages: Record<string, string> = {
  "@temporal/agent-sdk": "sdk",
  "@temporal/compiler": "compiler",
  "@temporal/language-server": "language-server",
  "@temporal/language-service": "language-service",
  "@temporal/playground": "playground",
  "@temporal/quantum": "quantum",
  "@temporal/server": "server",
  "@temporal/store-postgres": "store-postgres",
  "@temporal/witness": "witness",
  "prettier-plugin-mission": "prettier-plugin-mission",
  temporalc: "cli",
  "unplugin-mission": "unplugin-mission",
};
const repositoryUrl = "git+https://github.com/temporal-permission/temporalc.git";

const mission = readFileSync(join(repoRoot, "examples/nightly-backup.mission"), "utf8");
const night = "2026-11-22T23:30:00Z"; // inside the window: 00:30 in zone Z1
const noon = "2026-11-22T12:00:00Z";

const tmp = mkdtempSync(join(tmpdir(), "temporalc-packaging-"));
const project = join(tmp, "project");
let tarballs: string[] = [];

beforeAll(async () => {
  tarballs = packAll({ destination: join(tmp, "tarballs"), runPrepack: false });
  await createProject(project, [...tarballs, repoVersionOf("prettier"), repoVersionOf("esbuild"), repoVersionOf("typescript")]);
  writeFiles(project, {
    "missions/nightly-backup.mission": mission,
    "missions/typos.mission": readFileSync(join(repoRoot, "fixtures/invalid/typos.mission"), "utf8"),
    "tasks.mjs": 'export const snapshot_db = () => console.log("task snapshot_db");\nexport const upload_offsite = () => console.log("task upload_offsite");\n',
  });
}, 600_000);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const installed = (name: string, file = "") => join(project, "node_modules", name, file);
const npx = (args: string[], env: Record<string, string> = {}) => run(project, "npx", ["--no-install", ...args], env);

describe("the tarballs", () => {
  it("are one per package, in one folder, and publint finds nothing in any", async () => {
    expect(tarballs.map((file) => basename(file))).toEqual([
      "prettier-plugin-mission-0.1.0.tgz",
      "temporal-agent-sdk-0.1.0.tgz",
      "temporal-compiler-0.1.0.tgz",
      "temporal-language-server-0.1.0.tgz",
      "temporal-language-service-0.1.0.tgz",
      "temporal-playground-0.1.0.tgz",
      "temporal-quantum-0.1.0.tgz",
      "temporal-server-0.1.0.tgz",
      "temporal-store-postgres-0.1.0.tgz",
      "temporal-witness-0.1.0.tgz",
      "temporalc-0.1.0.tgz",
      "unplugin-mission-0.1.0.tgz",
    ]);
    for (const tarball of tarballs) {
      const bytes = readFileSync(tarball);
      const { messages, pkg } = await publint({ pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) } });
      expect(messages.map((message) => `${basename(tarball)}: ${formatMessage(message, pkg) ?? message.code}`)).toEqual([]);
    }
  }, 120_000);

  it("each carry the MIT licence, a README and the metadata a registry page shows", () => {
    const licence = readFileSync(join(repoRoot, "LICENSE"), "utf8");
    expect(licence).toMatch(/^MIT License/);
    for (const [name, folder] of Object.entries(packages)) {
      expect(readFileSync(installed(name, "LICENSE"), "utf8"), name).toBe(licence);
      const readme = readFileSync(installed(name, "README.md"), "utf8");
      expect(readme, name).toContain(`# ${name}`);
      expect(readme, name).toContain("npm run pack");
      expect(readme, name).toContain("https://github.com/temporal-permission/temporalc/blob/main/docs/");
      const manifest = JSON.parse(readFileSync(installed(name, "package.json"), "utf8"));
      expect(manifest.license, name).toBe("MIT");
      expect(manifest.repository, name).toEqual({ type: "git", url: repositoryUrl, directory: `packages/${folder}` });
      expect(manifest.homepage, name).toBe(`https://github.com/temporal-permission/temporalc/tree/main/packages/${folder}#readme`);
      expect(manifest.bugs, name).toEqual({ url: "https://github.com/temporal-permission/temporalc/issues" });
      expect(manifest.keywords.length, name).toBeGreaterThan(0);
      expect(manifest.publishConfig?.access, name).toBe(name.startsWith("@") ? "public" : undefined);
      // The playground is a Vite site: its build (type check, then vite build) is its prepack.
      expect(manifest.scripts.prepack, name).toBe(
        name === "@temporal/playground" ? "npm run build" : "node ../../scripts/prepack.mjs" + (name === "temporalc" ? " && node scripts/bundle.mjs" : ""),
      );
      const all = { ...manifest.dependencies, ...manifest.peerDependencies };
      for (const sibling of Object.keys(all).filter((dependency) => dependency in packages)) {
        expect(all[sibling], `${name} -> ${sibling}`).toBe("^0.1.0");
      }
    }
  });

  it.each([
    ["temporalc", "THIRD_PARTY_NOTICES", ["chevrotain Apache-2.0", "commander MIT"]],
    // The site's page bundles CodeMirror, its worker the compiler's chevrotain and prettier.
    ["@temporal/playground", "dist/THIRD_PARTY_NOTICES", ["@codemirror/view MIT", "chevrotain Apache-2.0", "prettier MIT", "vscode-languageserver-types MIT"]],
  ])("ship the licence texts of what %s bundles in %s", (bundler, file, expected) => {
    const notices = readFileSync(installed(bundler, file), "utf8");
    const sections = [...notices.matchAll(/^(\S+)@\d\S* \((.+)\)$/gm)].map(([, name, licence]) => `${name} ${licence}`);
    expect(sections).toEqual(expect.arrayContaining(expected));
    expect(sections).toEqual([...sections].sort());
    expect(notices).toContain("Apache License\n                           Version 2.0");
    expect(notices).toContain("Permission is hereby granted, free of charge");
  });
});

describe("as a user of the installed packages", () => {
  it("npx temporalc checks, compiles and runs a mission, and its ledger verifies", async () => {
    const checked = await npx(["temporalc", "check", "missions/nightly-backup.mission"]);
    expect(checked).toMatchObject({ status: 0 });
    expect(checked.stdout).toContain("0 errors");

    const broken = await npx(["temporalc", "check", "missions/typos.mission"]);
    expect(broken.status).toBe(1);
    expect(broken.stdout + broken.stderr).toMatch(/error\[M\d+\]/);

    await succeed(project, "npx", ["--no-install", "temporalc", "compile", "missions/nightly-backup.mission", "--out-dir", "compiled", "--dts"]);
    expect(existsSync(join(project, "compiled/nightly-backup.mjs"))).toBe(true);
    expect(readFileSync(join(project, "compiled/nightly-backup.d.mts"), "utf8")).toContain('Mission<"snapshot_db" | "upload_offsite">');

    const home = join(tmp, "home");
    const ran = await npx(["temporalc", "run", "missions/nightly-backup.mission", "--tasks", "./tasks.mjs", "--carbon", "180", "--at", night, "--home", home]);
    expect(ran).toMatchObject({ status: 0 });
    expect(ran.stdout).toContain("task snapshot_db\ntask upload_offsite\nnightly_backup: ALLOW");
    expect(ran.stdout).toContain("receipt anchored: tile");
    expect(await npx(["temporalc", "ledger", "verify", "--home", home])).toMatchObject({ status: 0 });
  }, 240_000);

  it("compiles with compile() from code, and the module runs on the installed SDK", async () => {
    writeFiles(project, {
      "from-code.mjs": `import { compile } from "@temporal/compiler";
import { readFileSync, writeFileSync } from "node:fs";
const { code, diagnostics } = compile(readFileSync("missions/nightly-backup.mission", "utf8"), { filename: "nightly-backup.mission" });
if (code === undefined) throw new Error(JSON.stringify(diagnostics));
writeFileSync("from-code.generated.mjs", code);
const { nightly_backup } = await import("./from-code.generated.mjs");
for (const at of process.argv.slice(2)) {
  const decision = await nightly_backup.evaluate({ clock: () => Date.parse(at), carbon: 180 });
  console.log(decision.verdict);
}
`,
    });
    const { stdout } = await succeed(project, "node", ["from-code.mjs", night, noon]);
    expect(stdout).toBe("ALLOW\nDENY\n");
  }, 120_000);

  it("bundles a .mission import with unplugin-mission's esbuild plugin", async () => {
    writeFiles(project, {
      "app/main.js": `import { nightly_backup } from "../missions/nightly-backup.mission";
const decision = await nightly_backup.evaluate({ clock: () => Date.parse(process.argv[2]), carbon: 180 });
console.log(decision.verdict);
`,
      "build.mjs": `import { build } from "esbuild";
import mission from "unplugin-mission/esbuild";
await build({ entryPoints: ["app/main.js"], bundle: true, platform: "node", format: "esm", outfile: "out/app.mjs", plugins: [mission()], logLevel: "warning" });
`,
    });
    await succeed(project, "node", ["build.mjs"]);
    expect(readFileSync(join(project, "out/app.mjs"), "utf8")).toContain("nightly_backup");
    expect((await succeed(project, "node", ["out/app.mjs", night])).stdout).toBe("ALLOW\n");
    expect((await succeed(project, "node", ["out/app.mjs", noon])).stdout).toBe("DENY\n");
  }, 120_000);

  it("prettier --check formats .mission files with the plugin", async () => {
    writeFiles(project, {
      ".prettierrc.json": '{ "plugins": ["prettier-plugin-mission"] }\n',
      "fmt/good.mission": mission,
      "fmt/messy.mission": mission.replace("mission nightly_backup {", "mission   nightly_backup    {"),
    });
    expect(await npx(["prettier", "--check", "fmt/good.mission"])).toMatchObject({ status: 0 });
    const messy = await npx(["prettier", "--check", "fmt/messy.mission"]);
    expect(messy.status).toBe(1);
    expect(messy.stdout + messy.stderr).toContain("fmt/messy.mission");
  }, 120_000);

  it("npx temporalc playground serves the installed @temporal/playground's site", async () => {
    // The installed bin itself (not through npx, which would stand between the test and the server's SIGINT).
    const child = spawn(process.execPath, [installed("temporalc", "bin/temporalc.js"), "playground", "--port", "0"], { cwd: project, stdio: ["ignore", "pipe", "pipe"] });
    try {
      const url = await playgroundUrl(child);
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('id="time-panel"');
      expect(readFileSync(installed("@temporal/playground", "package.json"), "utf8")).not.toContain('"dependencies"');
    } finally {
      child.kill("SIGINT");
    }
  }, 60_000);

  it("npx temporal-language-server loads with its dependencies and prints its version", async () => {
    expect(await npx(["temporal-language-server", "--version"])).toMatchObject({ status: 0, stdout: "0.1.0\n" });
  }, 60_000);

  it("npx temporal-witness creates a witness key and prints its cosignature/v1 vkey", async () => {
    const created = await npx(["temporal-witness", "key", "create", join(tmp, "witness.key"), "--name", "witness.example/w1"]);
    expect(created).toMatchObject({ status: 0 });
    expect(created.stdout).toMatch(/^witness\.example\/w1\+[0-9a-f]{8}\+B/);
  });

  it("type-checks the SDK, .mission imports and generated declarations without @types/node", async () => {
    expect(existsSync(installed("@types/node"))).toBe(false);
    // No `lib`: TypeScript's default for the target includes DOM, whose
    // AbortSignal and URL the SDK's declarations name (@types/node has them too).
    const compilerOptions = {
      target: "ES2022",
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      types: ["unplugin-mission/client"],
    };
    writeFiles(project, {
      "typed/nightly-backup.mission": mission,
      "typed/app.ts": `import { allow, contextAt, defaultSdk, type Mission } from "@temporal/agent-sdk";
import missions from "./nightly-backup.mission";
import { nightly_backup } from "./nightly-backup.mjs";

const ctx = contextAt(new Date("${night}"), { zone: 1 });
const fromWildcard: Mission | undefined = missions["nightly_backup"];
export const ready: boolean = allow(ctx, [300, 30]) && fromWildcard !== undefined && typeof defaultSdk === "function";
export const result = nightly_backup.run({ tasks: { snapshot_db: () => {}, upload_offsite: () => {} }, carbon: 180 });
`,
      "typed/misspelt.ts": `import { nightly_backup } from "./nightly-backup.mjs";
export const result = nightly_backup.run({ tasks: { snapshot_db: () => {}, upload_ofsite: () => {} } });
`,
      "tsconfig.bundler.json": JSON.stringify({ compilerOptions: { ...compilerOptions, module: "ESNext", moduleResolution: "Bundler" }, files: ["typed/app.ts"] }),
      "tsconfig.nodenext.json": JSON.stringify({ compilerOptions: { ...compilerOptions, module: "NodeNext", moduleResolution: "NodeNext" }, files: ["typed/app.ts"] }),
      "tsconfig.misspelt.json": JSON.stringify({ compilerOptions: { ...compilerOptions, module: "ESNext", moduleResolution: "Bundler" }, files: ["typed/misspelt.ts"] }),
    });
    await succeed(project, "npx", ["--no-install", "temporalc", "compile", "typed/nightly-backup.mission", "--dts"]);
    await succeed(project, "npx", ["--no-install", "tsc", "-p", "tsconfig.bundler.json"]);
    await succeed(project, "npx", ["--no-install", "tsc", "-p", "tsconfig.nodenext.json"]);
    // The same setup reports a wrong task name: the checks above are real.
    const misspelt = await npx(["tsc", "-p", "tsconfig.misspelt.json"]);
    expect(misspelt.status).not.toBe(0);
    expect(misspelt.stdout).toContain("upload_ofsite");
  }, 400_000);
});
