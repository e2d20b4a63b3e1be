/**
 * @module A screen whose code is a chunk of its own, which can be fetched ahead of its first render.
 *
 * React.lazy alone suspends on the first render, and React 19 then holds the revealed screen back until 300 ms
 * after its fallback showed (it batches reveals), which on a fast connection is most of the screen's load time.
 * `preload()` starts the chunk early (the admin guard calls it while it checks the session); once the chunk is
 * there, the screen renders it directly, without suspending. Before that, it falls back to React.lazy.
 */
import { createElement, lazy, useState, type ComponentType } from "react";

export interface LazyScreen {
  (): ReturnType<typeof createElement>;
  /** Fetches the screen's code once; a failed fetch may be tried again. */
  preload: () => Promise<unknown>;
}

export function lazyScreen(load: () => Promise<ComponentType>): LazyScreen {
  let loaded: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
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
  const Screen = () => {
    const [component] = useState(() => loaded ?? Suspending);
    return createElement(component);
  };
  return Object.assign(Screen, { preload });
}
