/**
 * docs/problems.md as a web page, where every problem's `type` points (catalog/problems.ts): each `## code`
 * heading becomes an anchor named by the code. The page uses a small subset of Markdown (headings,
 * paragraphs, one fenced block, inline code, bold, italics and links), so it is rendered here rather than by
 * a Markdown library in the `$default` route's bundle.
 */
const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function inline(text: string): string {
  const parts = escapeHtml(text).split(/(`[^`]*`)/);
  return parts
    .map((part) =>
      part.startsWith('`') && part.endsWith('`') && part.length > 1
        ? `<code>${part.slice(1, -1)}</code>`
        : part
            .replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+|#[\w-]+)\)/g, '<a href="$2">$1</a>')
            .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
            .replace(/\*([^*\s][^*]*)\*/g, '<em>$1</em>'),
    )
    .join('');
}

/** The whole page for the Markdown text of docs/problems.md. */
export function problemsPage(markdown: string): string {
  const html: string[] = [];
  const lines = markdown.split('\n');
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) html.push(`<p>${inline(paragraph.join(' '))}</p>`);
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('```')) {
      flush();
      const code: string[] = [];
      while (++i < lines.length && !lines[i]!.startsWith('```')) code.push(lines[i]!);
      html.push(`<pre><code>${escapeHtml(code.join('\n'))}</code></pre>`);
    } else if (/^#{1,3} /.test(line)) {
      flush();
      const level = line.indexOf(' ');
      const title = line.slice(level + 1).trim();
      const id = level === 2 ? ` id="${escapeHtml(title)}"` : '';
      html.push(
        `<h${level}${id}>${level === 2 ? `<a href="#${escapeHtml(title)}">${escapeHtml(title)}</a>` : inline(title)}</h${level}>`,
      );
    } else if (line.trim() === '') flush();
    else paragraph.push(line.trim());
  }
  flush();
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Problem types</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#16191f}
code,pre{font:14px ui-monospace,monospace;background:#f2f3f3}pre{padding:.75rem;overflow-x:auto}
h2{margin-top:2rem}h2 a{color:inherit;text-decoration:none}h2:target{background:#fff7d6}</style>
</head>
<body>
${html.join('\n')}
</body>
</html>
`;
}
