import { ENV_VARS, type EnvVar, GROUP_TITLES, type Group } from "../lib/env-vars";

/**
 * The configuration tables, written from lib/env-vars.ts (the one list of settings): the README's short
 * table of the settings most installs touch, and docs/configuration.md with every variable by group.
 * `npm run docs:config` writes both; test/config-docs.test.ts fails when either differs.
 */

const cell = (s: string) => s.replace(/\|/g, "\\|");
const row = (v: EnvVar) => `| \`${v.name}\` | ${cell(v.fallback)} | ${cell(v.meaning)} |`;
const HEAD = "| Variable | Default | Meaning |\n| --- | --- | --- |";

export const README_START = "<!-- config:start -->";
export const README_END = "<!-- config:end -->";

export function readmeTable(): string {
  const rows = ENV_VARS.filter((v) => v.essential).map(row);
  return [HEAD, ...rows, "", "Every variable, by group: [configuration](docs/configuration.md)."].join("\n");
}

export function configurationDoc(): string {
  const groups = [...new Set(ENV_VARS.map((v) => v.group))] as Group[];
  const parts = [
    "# Configuration",
    "",
    "<!-- Written by `npm run docs:config` from lib/env-vars.ts; edit that list, not this file. -->",
    "",
    "Every environment variable Outreach reads. All are optional: unset (or empty) means the default.",
    "A value that is set but invalid — a word where a number belongs, a port above 65535, a URL without",
    "`http://` — stops `npm start`, the worker and every `outreach` command with one line naming the",
    "variable. Benchmarks read their own `BENCH_*` variables: see [benchmarks](benchmarks.md).",
  ];
  for (const g of groups) {
    parts.push("", `## ${GROUP_TITLES[g]}`, "", HEAD, ...ENV_VARS.filter((v) => v.group === g).map(row));
  }
  return `${parts.join("\n")}\n`;
}

/** The README with its table between the markers replaced by readmeTable(). */
export function withReadmeTable(readme: string): string {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${README_START} … ${README_END} markers`);
  return `${readme.slice(0, start + README_START.length)}\n${readmeTable()}\n${readme.slice(end)}`;
}
