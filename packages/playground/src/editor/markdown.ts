/**
 * The language service's hover Markdown as DOM nodes: the small subset it
 * writes (paragraphs, `---` rules, tables, **bold**, `code`, [links](url)). Text is
 * only ever set as text content, never parsed as HTML. Tables (a window's
 * clock times in each zone) become real tables, with a header row.
 */
export function renderMarkdown(markdown: string): HTMLElement {
  const root = document.createElement("div");
  root.className = "markdown";
  for (const block of markdown.split(/\n{2,}/)) {
    if (block.trim() === "---") {
      root.append(document.createElement("hr"));
      continue;
    }
    const lines = block.split("\n");
    if (lines.length >= 2 && lines.every((line) => line.startsWith("|"))) {
      root.append(table(lines));
      continue;
    }
    const paragraph = document.createElement("p");
    paragraph.append(...inline(block));
    root.append(paragraph);
  }
  return root;
}

/** `| a | b |` rows, the second being the `| --- |` separator under the header. */
function table(lines: readonly string[]): HTMLTableElement {
  const cells = (line: string) =>
    line
      .replace(/^\|/, "")
      .replace(/\|$/, "")
      .split("|")
      .map((cell) => cell.trim());
  const node = document.createElement("table");
  const [header = "", , ...rows] = lines;
  const head = node.createTHead().insertRow();
  for (const cell of cells(header)) {
    const th = document.createElement("th");
    th.scope = "col";
    th.append(...inline(cell));
    head.append(th);
  }
  const body = node.createTBody();
  for (const line of rows) {
    const row = body.insertRow();
    for (const cell of cells(line)) row.insertCell().append(...inline(cell));
  }
  return node;
}

const INLINE = /\*\*([^*]+)\*\*|`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)/g;

function inline(text: string): Node[] {
  const nodes: Node[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    nodes.push(document.createTextNode(text.slice(last, match.index)));
    const [, bold, code, linkText, href] = match;
    if (bold !== undefined) nodes.push(element("strong", bold));
    else if (code !== undefined) nodes.push(element("code", code));
    else if (linkText !== undefined && href !== undefined && /^https?:\/\//.test(href)) {
      const link = element("a", linkText) as HTMLAnchorElement;
      link.href = href;
      link.target = "_blank";
      link.rel = "noopener";
      nodes.push(link);
    } else nodes.push(document.createTextNode(match[0]));
    last = match.index + match[0].length;
  }
  nodes.push(document.createTextNode(text.slice(last)));
  return nodes;
}

function element(tag: string, text: string): HTMLElement {
  const node = document.createElement(tag);
  node.textContent = text;
  return node;
}
