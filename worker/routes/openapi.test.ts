import { describe, expect, it } from "vitest";
import { appRoutes } from "../test/route-matrix";
import { call } from "../test/helpers";

interface Operation {
  requestBody?: {
    content: { "application/json": { schema: { properties: Record<string, unknown>; required?: string[] } } };
  };
  parameters?: { name: string; in: string }[];
}
type Document = { openapi: string; servers: { url: string }[]; paths: Record<string, Record<string, Operation>> };

async function document(): Promise<Document> {
  const res = await call("/api/openapi.json");
  expect(res.status).toBe(200);
  expect(res.headers.get("Content-Type")).toContain("application/json");
  return (await res.json()) as Document;
}

/** OpenAPI's `{id}` for Hono's `:id`. */
const openApiPath = (route: string) => route.replace(/:([a-zA-Z]+)/g, "{$1}");

describe("GET /api/openapi.json", () => {
  it("describes OpenAPI 3.1 on this origin, with the key in X-API-Key", async () => {
    const doc = await document();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([{ url: "http://dc.test" }]);
    expect(doc).toMatchObject({
      components: { securitySchemes: { apiKey: { type: "apiKey", in: "header", name: "X-API-Key" } } },
    });
  });

  it("describes every customer route for mappings, and nothing that is not a route", async () => {
    const doc = await document();
    const described = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const routes = appRoutes().map((r) => {
      const [method, path] = r.split(" ");
      return `${method} ${openApiPath(path!)}`;
    });
    for (const op of described) expect(routes, op).toContain(op);
    const mappingRoutes = routes.filter((r) => r.includes(" /api/mappings"));
    expect(described.filter((op) => op.includes(" /api/mappings")).sort()).toEqual(mappingRoutes.sort());
  });

  it("takes the request bodies from the schemas the Worker validates with", async () => {
    const { paths } = await document();
    const create = paths["/api/mappings"]!.post!.requestBody!.content["application/json"].schema;
    expect(create.required).toEqual(["url", "htmlContent"]);
    expect(Object.keys(create.properties)).toEqual(
      expect.arrayContaining(["url", "htmlContent", "match", "placement", "seo", "status", "publishAt", "unpublishAt"]),
    );
    expect(create.properties.url).toMatchObject({ type: "string", maxLength: 2_048 });
    expect(create.properties.status).toMatchObject({ enum: ["draft", "published"] });
    const change = paths["/api/mappings/{id}"]!.patch!;
    expect(change.requestBody!.content["application/json"].schema.required ?? []).toEqual([]);
    expect(change.parameters).toEqual([expect.objectContaining({ name: "id", in: "path" })]);
    expect(paths["/api/mappings"]!.get!.parameters!.map((p) => p.name)).toEqual(
      expect.arrayContaining(["searchTerm", "limit", "offset"]),
    );
  });
});
