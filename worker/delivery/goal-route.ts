/**
 * @module `POST /api/goals` with `{u, vid, goal}`: a visitor reached one of the customer's goals (the snippet's
 * `dynamicContent.goal(name)`, or a plain beacon). Any origin may send it, as a simple request (the body is read as
 * JSON whatever its content type, so no preflight). Counted only for an active customer one of whose experiments
 * measures the goal, within the visitor's budget; it travels with the page views (page-view.ts) and converts the
 * visitor in the experiments they saw (analytics/experiment-fold.ts). Nothing is read from D1 here.
 */
import { Hono, type Context } from "hono";
import { goalBody } from "#contract/experiments";
import type { AppEnv } from "../env";
import { bodyCap } from "../http/body-limit";
import { visitorKey } from "../http/client-info";
import { bodyTooDeep } from "../http/json-depth";
import { isUserId } from "../lib/ids";
import { CORS_HEADERS, withinVisitorBudget } from "./content-route";
import { countGoal } from "./page-view";
import { isServing, readState } from "./store";

/** `{u, vid, goal}` takes about 150 bytes. */
const GOAL_BODY_MAX_BYTES = 1024;

const answer = (c: Context<AppEnv>, status: 200 | 202 | 400 | 429, body: object) =>
  c.json(body, status, { ...CORS_HEADERS, "Cache-Control": "no-store" });

const problem = (c: Context<AppEnv>, status: 400 | 429, error: string) => answer(c, status, { error });

export const goalRoute = new Hono<AppEnv>()
  .options(
    "/",
    () =>
      new Response(null, {
        status: 204,
        headers: {
          ...CORS_HEADERS,
          "Access-Control-Allow-Methods": "POST",
          "Access-Control-Allow-Headers": "Content-Type",
        },
      }),
  )
  .post("/", bodyCap(GOAL_BODY_MAX_BYTES), async (c) => {
    const text = await c.req.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return problem(c, 400, 'The body must be JSON: {"u": "<user id>", "vid": "<visitor id>", "goal": "<name>"}');
    }
    const tooDeep = bodyTooDeep(json);
    if (tooDeep) return problem(c, 400, tooDeep);
    const parsed = goalBody.safeParse(json);
    if (!parsed.success) return problem(c, 400, parsed.error.issues[0]!.message);
    const { u: userId, vid, goal } = parsed.data;
    if (!isUserId(userId)) return problem(c, 400, "Unknown user id");
    const visitor = visitorKey(c.req.header("CF-Connecting-IP"));
    if (!(await withinVisitorBudget(c.env, userId, visitor))) return problem(c, 429, "Too many requests");
    const state = await readState(c.env, userId, Date.now(), visitor);
    if (!isServing(state) || !state.goals?.includes(goal)) {
      return answer(c, 200, { message: "Not counted: no experiment of this customer measures this goal" });
    }
    countGoal(c.env, c.executionCtx, { userId, vid, goal, visitor });
    return answer(c, 202, { message: "Goal received" });
  });
