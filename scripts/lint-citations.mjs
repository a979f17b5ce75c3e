// `npm run lint:citations`: every place the repository cites its own docs points at something that exists.
//   - a section cited by name, as comments do: `docs/api.md, "Caching"`, `README, "Configuration"`,
//     `docs/api.md ("Caching")` — the file must have a heading with that text;
//   - a link or path to a Markdown file, with or without `#anchor`: `[x](scaling.md#figures)`,
//     `docs/performance.md#soak` — the file must exist and, with an anchor, have a heading of that slug;
//   - a source file named in a comment or doc (`answer.ts`, `http/answer.ts`, `./lint-openapi.mjs`) — some tracked file's path ends so.
// It reads the files git tracks (and untracked ones it does not ignore), as they are in the working tree, and
// prints one line per broken citation: `file:line: what is cited — why it is broken`.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const SOURCE = /\.(ts|tsx|mjs|cjs|js|sh|ya?ml|conf|json|md)$|(^|\/)(Dockerfile|run)$/;
const SKIPPED = /(^|\/)(package-lock\.json|node_modules|dist)(\/|$)/;

/** A cited section: a Markdown file named as a path or README, then its heading in quotes. */
const NAMED_SECTION = /((?:\.\.\/|\.\/)?(?:[\w.-]+\/)*[\w.-]+\.md|\bREADME\b)(?:,\s*|\s*\(\s*|\s+)["“]([^"”\n]+)["”]/g;
/** A Markdown link's target or a bare path to a Markdown file, with an optional anchor. */
const MD_TARGET = /\]\(([^)\s]+?\.md)(#[\w-]+)?\)|(?<![\w/.-])((?:docs\/|\.\.\/|\.\/)(?:[\w.-]+\/)*[\w.-]+\.md)(#[\w-]+)?/g;

/** A TypeScript or ES-module file named by its path or name alone. */
const SOURCE_NAME = /(?<![\w/@*.-])((?:\.{1,2}\/)*(?:[\w.-]+\/)*[\w-]+(?:\.[\w-]+)*\.(?:tsx?|mjs))\b/g;

function trackedFiles() {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
  return listed.split('\n').filter((file) => file && SOURCE.test(file) && !SKIPPED.test(file) && existsSync(join(root, file)));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2… */
function slugsOf(headings) {
  const counts = new Map();
  return headings.map((text) => {
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const seen = counts.get(base) ?? 0;
    counts.set(base, seen + 1);
    return seen === 0 ? base : `${base}-${seen}`;
  });
}

const headingCache = new Map();
/** The headings of a Markdown file (outside code fences), as text without inline code or link markup. */
function headingsOf(file) {
  if (!headingCache.has(file)) {
    const headings = [];
    let fenced = false;
    for (const line of readFileSync(join(root, file), 'utf8').split('\n')) {
      if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
      const match = !fenced && /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
      if (match) headings.push(match[1].replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1'));
    }
    headingCache.set(file, { texts: new Set(headings), slugs: new Set(slugsOf(headings)) });
  }
  return headingCache.get(file);
}

/** The repository path a citation names: relative to the citing Markdown file, else to the root. */
function resolveCited(cited, fromFile) {
  if (cited === 'README' || cited === 'README.md') return 'README.md';
  const candidates = [normalize(join(dirname(fromFile), cited)), normalize(cited), normalize(join('docs', cited))];
  // Relative to the citing file first for links in Markdown; a comment's `docs/…` path is from the root.
  return candidates.find((candidate) => !candidate.startsWith('..') && existsSync(join(root, candidate)));
}

export function findBrokenCitations(files = trackedFiles()) {
  const problems = [];
  const everyFile = trackedFiles();
  const sourceExists = (name, fromFile) =>
    name.startsWith('.')
      ? existsSync(join(root, dirname(fromFile), name))
      : everyFile.some((file) => file === name || file.endsWith(`/${name}`));
  for (const file of files) {
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    lines.forEach((line, index) => {
      const at = `${file}:${index + 1}`;
      for (const [, cited, section] of line.matchAll(NAMED_SECTION)) {
        const target = resolveCited(cited, file);
        if (target === undefined) problems.push(`${at}: ${cited} — no such file`);
        else if (!headingsOf(target).texts.has(section.replace(/`/g, '')))
          problems.push(`${at}: ${cited}, "${section}" — ${target} has no such heading`);
      }
      for (const [, linked, linkAnchor, bare, bareAnchor] of line.matchAll(MD_TARGET)) {
        const cited = linked ?? bare;
        const anchor = linkAnchor ?? bareAnchor;
        if (/^[a-z]+:\/\//.test(cited)) continue;
        const target = resolveCited(cited, file);
        if (target === undefined) problems.push(`${at}: ${cited} — no such file`);
        else if (anchor && !headingsOf(target).slugs.has(anchor.slice(1)))
          problems.push(`${at}: ${cited}${anchor} — ${target} has no such heading`);
      }
      for (const [, name] of line.matchAll(SOURCE_NAME)) {
        if (!sourceExists(name, file)) problems.push(`${at}: ${name} — no tracked file of that name`);
      }
    });
  }
  return problems;
}

if (process.argv[1] && relative(process.argv[1], fileURLToPath(import.meta.url)) === '') {
  const problems = findBrokenCitations();
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(`\n${problems.length} citation(s) point at a file or section that does not exist.`);
    process.exit(1);
  }
  console.log('Every cited file and section exists.');
}
