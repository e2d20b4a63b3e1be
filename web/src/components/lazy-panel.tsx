/**
 * @module A part of a screen whose code is a chunk of its own (a tab most visits never open): the spinner while
 * the chunk arrives, the red note if it cannot be fetched. Keeps the initial bundle within its budget
 * (docs/spa.md "Code splitting").
 */
import { Suspense, type ReactNode } from "react";
import { LoadBoundary } from "./load-boundary";
import { Loading } from "./loading";

export function LazyPanel({ name, children }: { name: string; children: ReactNode }) {
  return (
    <LoadBoundary resetKey={name}>
      <Suspense fallback={<Loading />}>{children}</Suspense>
    </LoadBoundary>
  );
}
