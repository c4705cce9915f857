import Markdown, { defaultUrlTransform, type Components } from 'react-markdown';

/**
 * A memory's body as Markdown (issue 16: lists, emphasis, code — never the literal `- `). Raw
 * HTML in a memory is shown as text, never run (no rehype-raw; skipHtml drops the tags); links
 * keep only safe schemes (react-markdown's default URL check) and open outside the app, without
 * the opener; images are shown as their text, so a memory cannot make the app fetch anything.
 */
const components: Components = {
  a: ({ href, children }) =>
    href ? (
      <a href={href} target="_blank" rel="noopener noreferrer nofollow">
        {children}
      </a>
    ) : (
      <>{children}</>
    ),
  img: ({ alt }) => <span className="markdown-image-text">{alt ? `[${alt}]` : ''}</span>,
};

export function MemoryMarkdown({ text, className }: { text: string; className?: string }) {
  return (
    <div className={`memory-markdown${className ? ` ${className}` : ''}`}>
      <Markdown skipHtml urlTransform={defaultUrlTransform} components={components}>
        {text}
      </Markdown>
    </div>
  );
}
