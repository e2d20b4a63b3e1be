/** Source code shown verbatim (as text, never rendered). */
export function CodeBlock({ code }: { code: string }) {
  return (
    <pre className="overflow-x-auto rounded-md bg-muted p-4 text-sm">
      <code>{code}</code>
    </pre>
  );
}
