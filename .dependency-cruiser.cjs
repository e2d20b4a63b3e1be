/**
 * The layers of the code, as rules (`npm run lint:layers`, run by `npm test`). docs/architecture.md draws them.
 *
 *   contract/          the wire contract and pure rules both apps share: imports nothing of ours
 *   web/               the SPA: of the Worker's code, only contract/
 *   worker/, bottom to top:
 *     db/ lib/                  tables, declarations, pure helpers
 *     models/ messages/         data functions (database first); the queues' messages
 *     paypal/                   the PayPal client
 *     http/                     Hono helpers: errors, validation, paging, headers
 *     email/                    the one sendMail()
 *     delivery/ analytics/ billing/ webhooks/ websites/ bulk/ auth/   the processes
 *     routes/                   one router per resource
 *     app.ts index.ts scheduled.ts                                   the entry points
 *   web/src/, bottom to top:
 *     lib/                      helpers, the request helper, toasts, formats
 *     components/ hooks/ queries/   shared UI, hooks, server state
 *     features/admin/ features/customer/   the screens, by audience; admin screens load lazily (admin-pages.ts)
 * A file may import its own layer and those below it, never one above; nothing imports in a circle.
 */
const TESTS = "\\.test\\.tsx?$|^worker/test/|^web/src/test/";
const ENTRY_POINTS = "^worker/(app|index|scheduled)\\.ts$";
const PROCESSES = "^worker/(delivery|analytics|billing|webhooks|websites|bulk|auth)/";

/** A rule that files under `from` may not import `to`. */
const never = (name, comment, from, to) => ({
  name,
  comment,
  severity: "error",
  from: { path: from, pathNot: TESTS },
  to: { path: to },
});

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "A circle means a shared piece sits in the wrong file.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "web-imports-only-the-contract",
      comment: "The SPA reaches the Worker's code through contract/ alone (#contract/*), tests included.",
      severity: "error",
      from: { path: "^web/" },
      to: { path: "^(worker|scripts|e2e)/" },
    },
    {
      name: "contract-stands-alone",
      comment: "contract/ is the ground both apps stand on.",
      severity: "error",
      from: { path: "^contract/" },
      to: { path: "^(worker|web|scripts|e2e)/" },
    },
    never("worker-never-imports-web", "The Worker does not know the SPA's code.", "^worker/", "^web/"),
    never("db-is-the-ground", "Tables and declarations import only contract/.", "^worker/db/", "^worker/(?!db/)"),
    never("lib-is-pure", "Helpers import only helpers and declarations.", "^worker/lib/", "^worker/(?!lib/|db/)"),
    never(
      "models-stay-data",
      "Data functions never reach up to HTTP, processes or routes: they refuse with lib/refusal.ts.",
      "^worker/models/",
      "^worker/(?!models/|db/|lib/|env\\.ts$)",
    ),
    never(
      "messages-are-contracts",
      "The queues' messages are types and names, built on data types only.",
      "^worker/messages/",
      "^worker/(?!messages/|models/|db/|lib/)",
    ),
    never(
      "paypal-is-a-client",
      "The PayPal client knows PayPal, not what billing does with it.",
      "^worker/paypal/",
      "^worker/(?!paypal/|models/|messages/|db/|lib/|env\\.ts$)",
    ),
    never(
      "http-is-below-the-processes",
      "Hono helpers do not know delivery, billing or the routes.",
      "^worker/http/",
      "^worker/(?!http/|paypal/|models/|messages/|db/|lib/|env\\.ts$)",
    ),
    never(
      "email-is-below-the-processes",
      "sendMail() serves the processes and routes.",
      "^worker/email/",
      `${PROCESSES}|^worker/routes/|${ENTRY_POINTS}`,
    ),
    never(
      "delivery-never-imports-routes",
      "The hot path does not depend on the API.",
      "^worker/delivery/",
      `^worker/(routes|analytics|billing|webhooks|websites|bulk|auth)/|${ENTRY_POINTS}`,
    ),
    never(
      "processes-are-below-the-routes",
      "Routes call processes, never back.",
      PROCESSES,
      `^worker/routes/|${ENTRY_POINTS}`,
    ),
    never(
      "only-the-app-mounts-routes",
      "Routers are mounted by app.ts alone.",
      "^worker/(?!routes/|app\\.ts$)",
      "^worker/routes/",
    ),
    never(
      "entry-points-on-top",
      "Nothing imports the Worker's entry points but the entry points.",
      "^worker/(?!index\\.ts$|scheduled\\.ts$)",
      ENTRY_POINTS,
    ),
    never(
      "web-lib-is-the-ground",
      "The SPA's helpers know no component, hook, query or screen.",
      "^web/src/lib/",
      "^web/src/(components|hooks|queries|features)/|^web/src/[^/]+$",
    ),
    never(
      "shared-code-knows-no-screen",
      "Components, hooks and queries serve the screens, never import them.",
      "^web/src/(components|hooks|queries)/",
      "^web/src/features/|^web/src/(App|main|admin-pages|app-providers)\\.tsx?$",
    ),
    never(
      "customer-screens-know-no-admin-screen",
      "A customer never loads admin code: what both need lives in components/, lib/ or queries/.",
      "^web/src/features/customer/",
      "^web/src/features/admin/",
    ),
    never(
      "admin-screens-know-no-customer-screen",
      "What admin screens share with the customer's lives in components/, lib/ or queries/.",
      "^web/src/features/admin/",
      "^web/src/features/customer/",
    ),
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.web.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
