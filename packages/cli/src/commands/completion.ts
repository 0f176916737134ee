import type { Command } from "commander";
import { EXIT_OK } from "../errors.js";

/** What the completion scripts offer: each command's subcommands, options and their fixed choices. */
interface CompletionModel {
  name: string;
  description: string;
  options: { flags: string[]; description: string; choices?: readonly string[] }[];
  subcommands: CompletionModel[];
}

export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

function model(command: Command): CompletionModel {
  return {
    name: command.name(),
    description: command.description(),
    options: command.options
      .filter((option) => !option.hidden)
      .map((option) => ({
        flags: [option.short, option.long].filter((flag): flag is string => flag !== undefined),
        description: option.description,
        ...(option.argChoices === undefined ? {} : { choices: option.argChoices }),
      })),
    subcommands: command.commands.map(model),
  };
}

/** Prints the completion script for `shell`, built from the program's own commands and options, so it never falls behind. */
export function runCompletion(program: Command, shell: Shell): number {
  const root = model(program);
  const script = shell === "bash" ? bashScript(root) : shell === "zsh" ? zshScript(root) : fishScript(root);
  process.stdout.write(script);
  return EXIT_OK;
}

const words = (list: readonly string[]) => list.join(" ");
const optionWords = (command: CompletionModel) => words([...command.options.flatMap((o) => o.flags), "--help"]);

function bashFunction(root: CompletionModel): string {
  const cases = root.subcommands.map((command) => {
    const sub =
      command.subcommands.length > 0 ? `\n        if [ "$COMP_CWORD" -eq 2 ]; then COMPREPLY=($(compgen -W "${words(command.subcommands.map((s) => s.name))}" -- "$cur")); return; fi` : "";
    const choices = command.options
      .filter((o) => o.choices !== undefined)
      .map((o) => `\n          ${o.flags.join("|")}) COMPREPLY=($(compgen -W "${words(o.choices!)}" -- "$cur")); return ;;`)
      .join("");
    const nested = command.subcommands.map((s) => `${s.name}) opts="${optionWords(s)}" ;;`).join(" ");
    const opts = command.subcommands.length > 0 ? `case "\${COMP_WORDS[2]}" in ${nested} *) opts="--help" ;; esac` : `opts="${optionWords(command)}"`;
    return `      ${command.name})${sub}
        case "$prev" in${choices}
          *) ;;
        esac
        ${opts} ;;`;
  });
  return `_temporalc() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" opts
  COMPREPLY=()
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${words(root.subcommands.map((c) => c.name))} ${optionWords(root)}" -- "$cur"))
    return
  fi
  case "\${COMP_WORDS[1]}" in
${cases.join("\n")}
      *) opts="--help" ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
`;
}

function bashScript(root: CompletionModel): string {
  return `# temporalc completion for bash. Load it with:
#   source <(temporalc completion bash)
# or save it as ~/.local/share/bash-completion/completions/temporalc
${bashFunction(root)}complete -o filenames -o bashdefault -F _temporalc temporalc
`;
}

function zshScript(root: CompletionModel): string {
  // zsh runs bash completion functions through bashcompinit, which ships with zsh.
  return `#compdef temporalc
# temporalc completion for zsh. Load it with:
#   source <(temporalc completion zsh)
autoload -U +X compinit && compinit
autoload -U +X bashcompinit && bashcompinit
${bashFunction(root)}complete -o filenames -o bashdefault -F _temporalc temporalc
`;
}

function fishScript(root: CompletionModel): string {
  const quote = (text: string) => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  const lines = [
    "# temporalc completion for fish. Load it with:",
    "#   temporalc completion fish | source",
    "# or save it as ~/.config/fish/completions/temporalc.fish",
    "complete -c temporalc -f",
  ];
  const commandNames = root.subcommands.map((c) => c.name).join(" ");
  for (const command of root.subcommands) {
    lines.push(`complete -c temporalc -n 'not __fish_seen_subcommand_from ${commandNames}' -a ${command.name} -d ${quote(command.description)}`);
    const when = `__fish_seen_subcommand_from ${command.name}`;
    for (const sub of command.subcommands) lines.push(`complete -c temporalc -n '${when}' -a ${sub.name} -d ${quote(sub.description)}`);
    for (const option of [...command.options, ...command.subcommands.flatMap((s) => s.options)]) {
      const flags = option.flags.map((flag) => (flag.startsWith("--") ? `-l ${flag.slice(2)}` : `-s ${flag.slice(1)}`)).join(" ");
      const choices = option.choices === undefined ? "" : ` -x -a ${quote(option.choices.join(" "))}`;
      lines.push(`complete -c temporalc -n '${when}' ${flags}${choices} -d ${quote(option.description)}`);
    }
    if (command.subcommands.length === 0) lines.push(`complete -c temporalc -n '${when}' -F`);
  }
  return `${lines.join("\n")}\n`;
}
