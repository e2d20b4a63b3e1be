import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { JSON_BODY_MAX_DEPTH } from "./json-depth";
import { validate } from "./validate";

/** A route whose schema, unlike every real one, keeps free JSON: what the body-wide bound is the belt for. */
const app = new Hono().post("/", validate("json", z.object({ data: z.unknown() })), (c) => c.json(c.req.valid("json")));

const post = (body: unknown) =>
  app.request("/", { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });

const nested = (levels: number): unknown => {
  let value: unknown = {};
  for (let i = 1; i < levels; i++) value = [value];
  return value;
};

describe("validate: the body-wide nesting bound", () => {
  it("passes what a schema accepts within 32 levels", async () => {
    const res = await post({ data: nested(JSON_BODY_MAX_DEPTH - 1) });
    expect(res.status).toBe(200);
  });

  it("refuses with 400 what a schema accepts nested deeper, naming where", async () => {
    const res = await post({ data: nested(1_100) });
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: string };
    expect(error).toBe(
      `The body must be nested at most 32 levels deep; it goes deeper at data${"[0]".repeat(JSON_BODY_MAX_DEPTH - 1)}`,
    );
  });
});
