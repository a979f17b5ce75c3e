/**
 * The reference page's one stylesheet (openapi-reference-page.ts), inlined in its `<style>` so the page loads
 * nothing else: light and dark by `prefers-color-scheme`, a visible focus ring.
 */
export const REFERENCE_PAGE_STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #57606a; --bg: #fff; --panel: #f6f8fa; --line: #d0d7de; --accent: #0a58ca; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9da7b3; --bg: #0d1117; --panel: #161b22; --line: #30363d; --accent: #6cb6ff; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
a:focus-visible, summary:focus-visible, .scroll:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 1rem; background: var(--bg); padding: .5rem; z-index: 1; }
header, nav, main, footer { max-width: 72rem; margin: 0 auto; padding: 1rem; }
header { border-bottom: 1px solid var(--line); }
h1 { margin: .25rem 0; font-size: 1.75rem; }
h2 { margin-top: 2.5rem; border-bottom: 1px solid var(--line); }
main > section:first-child > h2 { margin-top: 1rem; }
h3 { margin-top: 2rem; font-size: 1.25rem; overflow-wrap: anywhere; }
h4 { margin: 1.5rem 0 .5rem; font-size: 1.1rem; overflow-wrap: anywhere; }
h5 { margin: 1rem 0 .25rem; font-size: 1rem; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9em; }
pre { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .75rem; overflow-x: auto; }
.operation { border: 1px solid var(--line); border-radius: 8px; padding: 0 1rem 1rem; margin: 1rem 0; }
.method { display: inline-block; min-width: 3.5rem; padding: 0 .4rem; border-radius: 4px; background: var(--accent); color: var(--bg); text-align: center; font-weight: 700; }
.muted { color: var(--muted); }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: .4rem .5rem; border-top: 1px solid var(--line); }
th { white-space: nowrap; }
td p:first-child { margin-top: 0; }
td p:last-child { margin-bottom: 0; }
details { margin: .25rem 0; }
summary { cursor: pointer; }
nav ul { padding-left: 1.25rem; }
`;
