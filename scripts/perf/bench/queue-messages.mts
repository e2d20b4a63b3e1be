/**
 * @module What the simulated page views put on the analytics queue: the ONE place where the bench's volume run
 * turns views into queue messages. Today the hot path sends one message per view, built by
 * delivery/page-view.ts `pageViewMessage`, and so does this. When the hot path's message format changes (for
 * example several views per message, flushed from the isolate), change `queueMessagesFor` alike: the simulation
 * batches, delivers and counts whatever messages it answers, at the times they say they were sent.
 */
import type { Env } from "../../../worker/env";
import { pageViewMessage } from "../../../worker/delivery/page-view";
import type { AnalyticsMessage } from "../../../worker/messages/analytics";
import type { SimulatedView } from "./traffic";

export interface QueueMessage {
  /** Virtual epoch ms the hot path sends it. */
  sentAt: number;
  body: AnalyticsMessage;
}

/** The messages the hot path sends for these views (in the order of their timestamps), in the order sent. */
export async function queueMessagesFor(
  env: Pick<Env, "APP_SECRET">,
  views: readonly SimulatedView[],
): Promise<QueueMessage[]> {
  return Promise.all(
    views.map(async (view) => ({
      sentAt: view.timestamp,
      body: await pageViewMessage(
        env,
        {
          userId: view.userId,
          url: view.url,
          match: { mappingId: view.mappingId, html: "" },
          request: new Request(view.url, { headers: { "User-Agent": view.userAgent, Referer: view.referer } }),
          visitor: view.visitor,
        },
        view.timestamp,
      ),
    })),
  );
}
