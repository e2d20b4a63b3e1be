/**
 * @module A screen (or a part of one, such as a tab) whose code is a chunk of its own, which can be fetched ahead of
 * its first render.
 *
 * React.lazy alone suspends on the first render, and React 19 then holds the revealed screen back until 300 ms
 * after its fallback showed (it batches reveals), which on a fast connection is most of the screen's load time.
 * `preload()` starts the chunk early (the admin guard calls it while it checks the session); once the chunk is
 * there, the screen renders it directly, without suspending. Before that, it falls back to React.lazy.
 */
import { createElement, lazy, useState, type ComponentType } from "react";

export interface LazyScreen<P extends object = object> {
  (props: P): ReturnType<typeof createElement>;
  /** Fetches the screen's code once; a failed fetch may be tried again. */
  preload: () => Promise<unknown>;
}

export function lazyScreen<P extends object = object>(load: () => Promise<ComponentType<P>>): LazyScreen<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  const Suspending = lazy(() => preload().then((component) => ({ default: component })));
  // Chosen once per mount: switching types later would remount the screen and lose its state.
  const Screen = (props: P) => {
    const [component] = useState<ComponentType<P>>(() => loaded ?? (Suspending as unknown as ComponentType<P>));
    return createElement(component, props);
  };
  return Object.assign(Screen, { preload });
}
