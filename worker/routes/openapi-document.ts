/**
 * @module The customer API as OpenAPI 3.1 (`GET /api/openapi.json`, docs/api.md): every request body and query is
 * generated from the zod schema the Worker validates it with, so the description cannot drift from the checks.
 * Answers are described by name and link to docs/api.md, where their shapes are (contract/responses.ts).
 */
import { z } from "zod";
import {
  analyticsQuery,
  deletedMappingsQuery,
  exportQuery,
  importQuery,
  installCheckBody,
  pickCheckBody,
  pickOnPageBody,
  mappingBody,
  mappingChangeBody,
  mappingDeleteQuery,
  mappingImportRow,
  mappingMatchQuery,
  mappingsQuery,
  mappingStatusBody,
  plainListQuery,
  urlRulesBody,
  versionsQuery,
  websiteBody,
} from "#contract/schemas";
import { timeseriesQuery } from "#contract/timeseries";
import { experimentResultsQuery, goalBody, promoteBody } from "#contract/experiments";
import { deliveriesQuery, webhookBody, webhooksQuery } from "#contract/webhooks";

type JsonSchema = Record<string, unknown>;

/** A schema as its input (what a client sends), without the `$schema` line OpenAPI does not take. */
function jsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  return rest;
}

/** A query schema's fields as OpenAPI parameters. */
function queryParameters(schema: z.ZodType): JsonSchema[] {
  const { properties = {}, required = [] } = jsonSchema(schema) as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: "query",
    required: required.includes(name),
    schema: property,
  }));
}

const pathId = (name: string, description: string) => ({
  name,
  in: "path",
  required: true,
  description,
  schema: { type: "integer", minimum: 1 },
});

const json = (schema: z.ZodType) => ({
  required: true,
  content: { "application/json": { schema: jsonSchema(schema) } },
});

/** An answer, by the name docs/api.md gives its shape. */
const answer = (description: string) => ({
  description,
  content: { "application/json": { schema: { type: ["object", "array"] } } },
});

/** The plan's limits on a change to a mapping, and the change throttle (docs/api.md). */
const CHANGE_LIMITS = {
  "403": { description: "Over the plan's limits (content updates, websites, stored content)" },
  "429": { description: "Over 120 changes to mappings a minute; Retry-After says when to try again" },
};

const ERRORS = {
  "400": { description: "Bad input: `{error}` names the problem; nothing was changed" },
  "401": { description: "No or unknown X-API-Key" },
  "404": { description: "Not found, or not this customer's" },
};

const list = (description: string) => ({
  ...answer(`${description}; the total in X-Total-Count`),
  headers: { "X-Total-Count": { schema: { type: "integer" } } },
});

export function openApiDocument(origin: string) {
  const mappingId = pathId("id", "The mapping's id");
  const hostname = {
    name: "hostname",
    in: "path",
    required: true,
    description: "The website's hostname (lowercase, without www.)",
    schema: { type: "string" },
  };
  const webhookId = {
    name: "id",
    in: "path",
    required: true,
    description: "The webhook's id",
    schema: { type: "string" },
  };
  return {
    openapi: "3.1.0",
    info: {
      title: "Dynamic Content API",
      version: "1",
      description:
        "The customer API. Every call but /api/content takes the customer's key in X-API-Key. Answer shapes: docs/api.md.",
    },
    servers: [{ url: origin }],
    components: { securitySchemes: { apiKey: { type: "apiKey", in: "header", name: "X-API-Key" } } },
    security: [{ apiKey: [] }],
    paths: {
      "/api/mappings": {
        get: {
          summary: "List mappings, newest first",
          parameters: queryParameters(mappingsQuery),
          responses: { "200": list("Mapping[]"), ...ERRORS },
        },
        post: {
          summary: "Create a mapping (published at once unless a status or schedule says otherwise)",
          requestBody: json(mappingBody),
          responses: { "201": answer("Mapping"), ...CHANGE_LIMITS, ...ERRORS },
        },
      },
      "/api/mappings/import": {
        post: {
          summary:
            "Import up to 10,000 mappings from CSV or JSON, checked first and applied all or nothing (docs/bulk.md)",
          parameters: queryParameters(importQuery),
          requestBody: {
            required: true,
            content: {
              "text/csv": { schema: { type: "string" } },
              "application/json": { schema: { type: "array", items: jsonSchema(mappingImportRow) } },
            },
          },
          responses: {
            "200": answer("ImportReport: checked (dryRun) or applied"),
            "413": { description: "Over 16 MB" },
            "415": { description: "Neither text/csv nor application/json" },
            "422": answer("ImportReport: rows were refused, nothing was applied"),
            ...ERRORS,
          },
        },
      },
      "/api/mappings/export": {
        get: {
          summary: "Download every mapping, in the import's format",
          parameters: queryParameters(exportQuery),
          responses: {
            "200": {
              description: "The mappings, oldest first",
              content: {
                "text/csv": { schema: { type: "string" } },
                "application/json": { schema: { type: "array" } },
              },
            },
            ...ERRORS,
          },
        },
      },
      "/api/mappings/{id}/preview": {
        post: {
          summary:
            "A signed link, valid 24 hours, that shows the mapping on its page, a draft too (docs/publishing.md)",
          parameters: [mappingId],
          responses: { "201": answer("PreviewLink {url, expiresAt}"), ...ERRORS },
        },
        delete: {
          summary: "Revoke every preview link of the mapping made so far",
          parameters: [mappingId],
          responses: { "200": answer("{message}"), ...ERRORS },
        },
      },
      "/api/mappings/deleted": {
        get: {
          summary: "Mappings deleted in the last 30 days, most recently deleted first (HTML as a preview)",
          parameters: queryParameters(deletedMappingsQuery),
          responses: { "200": list("DeletedMapping[]"), ...ERRORS },
        },
      },
      "/api/mappings/deleted/{id}/restore": {
        post: {
          summary: "Restore a deleted mapping, with its id, content and state",
          parameters: [pathId("id", "The deleted mapping's id")],
          responses: { "200": answer("Mapping"), ...CHANGE_LIMITS, ...ERRORS },
        },
      },
      "/api/mappings/match": {
        get: {
          summary: "Which mapping serves a page URL (for a visitor with the attributes given), and why",
          parameters: queryParameters(mappingMatchQuery),
          responses: { "200": answer("MappingMatch {mapping, reason}"), ...ERRORS },
        },
      },
      "/api/mappings/{id}": {
        patch: {
          summary:
            "Change a mapping: URL, HTML, placement, SEO fields, status, schedule, experiment, audience or holdout",
          parameters: [mappingId],
          requestBody: json(mappingChangeBody),
          responses: { "200": answer("Mapping"), ...CHANGE_LIMITS, ...ERRORS },
        },
        delete: {
          summary: "Delete a mapping, or with scope=url every mapping of its URL (each restorable for 30 days)",
          parameters: [mappingId, ...queryParameters(mappingDeleteQuery)],
          responses: {
            "200": answer("{message}; with scope=url GroupDeleteResponse {message, deleted, remaining}"),
            ...ERRORS,
          },
        },
      },
      "/api/mappings/{id}/status": {
        patch: {
          summary: "Publish or unpublish a mapping",
          parameters: [mappingId],
          requestBody: json(mappingStatusBody),
          responses: { "200": answer("Mapping"), ...ERRORS },
        },
      },
      "/api/mappings/{id}/experiment": {
        get: {
          summary:
            "The mapping's experiment's results per variant and goal, with uplift, its 95 % interval, the probability to beat the control and a sample-ratio check; with segment=device|country|referrer, also per segment value (docs/experiments.md)",
          parameters: [mappingId, ...queryParameters(experimentResultsQuery)],
          responses: {
            "200": answer(
              "ExperimentResults {variants, srm, weights, goals, startedAt, concentrated, sampleFull, visitorCap}",
            ),
            ...ERRORS,
          },
        },
      },
      "/api/mappings/{id}/placement-health": {
        get: {
          summary:
            "Selector health of the last 7 days: the views that delivered the mapping with a selector, those whose selector named no element, and the last such miss (docs/placement.md)",
          parameters: [mappingId],
          responses: { "200": answer("PlacementHealth {views, misses, lastMissAt}"), ...ERRORS },
        },
      },
      "/api/mappings/{id}/audience-results": {
        get: {
          summary:
            "An audience mapping's content against its holdout on the mapping's goals: the arms holdout (the control) and audience, with the figures of experiments' results (docs/audiences.md)",
          parameters: [mappingId, ...queryParameters(experimentResultsQuery)],
          responses: {
            "200": answer(
              "ExperimentResults {variants, srm, weights, goals, startedAt, concentrated, sampleFull, visitorCap}",
            ),
            ...ERRORS,
          },
        },
      },
      "/api/mappings/{id}/experiment/promote": {
        post: {
          summary: "Make a variant the mapping's content and end the experiment (recorded as a version)",
          parameters: [mappingId],
          requestBody: json(promoteBody),
          responses: { "200": answer("Mapping"), ...ERRORS },
        },
      },
      "/api/mappings/{id}/versions": {
        get: {
          summary: "A mapping's versions, newest first",
          parameters: [mappingId, ...queryParameters(versionsQuery)],
          responses: { "200": list("MappingVersion[]"), ...ERRORS },
        },
      },
      "/api/mappings/{id}/versions/{version}/restore": {
        post: {
          summary: "Restore a version",
          parameters: [mappingId, pathId("version", "The version's number")],
          responses: { "200": answer("Mapping"), ...ERRORS },
        },
      },
      "/api/analytics": {
        get: {
          summary: "Hits per page URL",
          parameters: queryParameters(analyticsQuery),
          responses: { "200": list("AnalyticsRow[]"), ...ERRORS },
        },
      },
      "/api/analytics/timeseries": {
        get: {
          summary: "Requests, deliveries and crawler requests per day, week or month (UTC), of the account or one URL",
          parameters: queryParameters(timeseriesQuery),
          responses: { "200": answer("TimeseriesPoint[] [{start, requests, deliveries, crawlerRequests}]"), ...ERRORS },
        },
      },
      "/api/user/stats": { get: { summary: "Requests and the limit", responses: { "200": answer("Stats") } } },
      "/api/url-rules": {
        get: { summary: "Ignored URL parameters", responses: { "200": answer("UrlRules") } },
        put: {
          summary: "Set the customer's own ignored URL parameters",
          requestBody: json(urlRulesBody),
          responses: { "200": answer("UrlRules"), ...ERRORS },
        },
      },
      "/api/onboarding": {
        get: {
          summary:
            "Getting-started steps (verified, mapping, snippet, firstView, website), each done or not, with when and (snippet) the page's host",
          responses: { "200": answer("Onboarding {steps: [{key, done, at?, host?}]}") },
        },
      },
      "/api/install-check": {
        post: {
          summary:
            "Fetch a page of the customer's website and say whether the snippet, their user id and a mapping are there, with a sentence per problem",
          requestBody: json(installCheckBody),
          responses: {
            "200": answer("InstallCheck {reachable, snippetFound, userIdMatches, mappingMatches, problems}"),
            "429": { description: "More than 30 checks in an hour; `Retry-After` says when to try again" },
            "503": { description: "The page's host name could not be looked up; try again in a few minutes" },
            ...ERRORS,
          },
        },
      },
      "/api/pick-on-page": {
        post: {
          summary:
            "A signed 10-minute link to the customer's page in the placement picker's frame, on an origin other than the dashboard's (docs/placement.md)",
          requestBody: json(pickOnPageBody),
          responses: {
            "200": answer("PickFrame {frameUrl, frameOrigin, expiresAt}"),
            "429": { description: "More than 60 pages or checks in an hour; `Retry-After` says when to try again" },
            "503": { description: "No origin other than the dashboard's is configured to show the page on" },
            ...ERRORS,
          },
        },
      },
      "/api/pick-on-page/check": {
        post: {
          summary:
            "Look for a picked selector on up to 3 other viewed pages under a prefix rule (`…/*`); found null: could not check (docs/placement.md)",
          requestBody: json(pickCheckBody),
          responses: {
            "200": answer("PickCheck {pages: [{url, found}]}"),
            "429": { description: "More than 60 pages or checks in an hour; `Retry-After` says when to try again" },
            "503": { description: "The page's host name could not be looked up; try again in a few minutes" },
            ...ERRORS,
          },
        },
      },
      "/api/websites": {
        get: {
          summary: "Website claims (pending and proven), their origin and delivery mode",
          parameters: queryParameters(plainListQuery),
          responses: { "200": list("Website[]"), ...ERRORS },
        },
      },
      "/api/websites/{hostname}": {
        get: {
          summary: "One website claim, with the DNS TXT record that proves it",
          parameters: [hostname],
          responses: { "200": answer("Website"), ...ERRORS },
        },
        put: {
          summary:
            "Claim a website (pending until proven) or change its origin, delivery mode (snippet or edge) and asset origin",
          parameters: [hostname],
          requestBody: json(websiteBody),
          responses: {
            "200": answer("Website"),
            "201": answer("Website: a new, pending claim (another customer's proof does not stand in the way)"),
            "403": { description: "An edge website over the plan's websites limit" },
            ...ERRORS,
          },
        },
        delete: {
          summary: "Release a claim; a proven edge website stops being served at once",
          parameters: [hostname],
          responses: { "200": answer("{message}"), ...ERRORS },
        },
      },
      "/api/websites/{hostname}/status": {
        get: {
          summary:
            "The website's steps to going live: DNS points at us, ownership (the TXT record) proven, certificate (Cloudflare for SaaS's ssl.status, or managed)",
          parameters: [hostname],
          responses: {
            "200": answer("WebsiteStatus {hostname, ready, dns, ownership, certificate}"),
            "429": { description: "Over 720 status reads an hour" },
            ...ERRORS,
          },
        },
      },
      "/api/websites/{hostname}/verify": {
        post: {
          summary:
            "Check the DNS TXT record now: active once proven (taking the hostname over from another customer), else pending with what the check found",
          parameters: [hostname],
          responses: {
            "200": answer("Website"),
            "409": { description: "Another customer's proof of this hostname became active at the same moment" },
            "429": { description: "Over 30 checks an hour" },
            ...ERRORS,
          },
        },
      },
      "/api/webhooks": {
        get: {
          summary: "Webhooks (never their secrets)",
          parameters: queryParameters(webhooksQuery),
          responses: { "200": list("Webhook[]"), ...ERRORS },
        },
        post: {
          summary: "Register a webhook: its signing secret is in this answer only (docs/webhooks.md)",
          requestBody: json(webhookBody),
          responses: { "201": answer("CreatedWebhook {id, url, createdAt, lastDelivery, secret}"), ...ERRORS },
        },
      },
      "/api/webhooks/{id}": {
        delete: {
          summary: "Delete a webhook and its delivery log",
          parameters: [webhookId],
          responses: { "200": answer("{message}"), ...ERRORS },
        },
      },
      "/api/webhooks/{id}/deliveries": {
        get: {
          summary: "A webhook's delivery log, newest first (30 days)",
          parameters: [webhookId, ...queryParameters(deliveriesQuery)],
          responses: { "200": list("WebhookDelivery[]"), ...ERRORS },
        },
      },
      "/api/webhooks/{id}/test": {
        post: {
          summary: "Send a signed ping event now",
          parameters: [webhookId],
          responses: { "201": answer("WebhookDelivery"), ...ERRORS },
        },
      },
      "/api/content": {
        get: {
          summary: "The content of a page (what snippet.js asks); no key, CORS for any origin",
          security: [],
          parameters: [
            { name: "u", in: "query", required: true, schema: { type: "string" }, description: "The customer's id" },
            { name: "url", in: "query", required: true, schema: { type: "string" }, description: "The page URL" },
            { name: "format", in: "query", required: false, schema: { type: "string", enum: ["json"] } },
            {
              name: "vid",
              in: "query",
              required: false,
              schema: { type: "string", pattern: "^[A-Za-z0-9_-]{8,64}$" },
              description: "The visitor's random id: which variant of an experiment they see (docs/experiments.md)",
            },
            {
              name: "r",
              in: "query",
              required: false,
              schema: { type: "string" },
              description:
                "The page's document.referrer: the visitor's referrer type for audiences (docs/audiences.md)",
            },
            {
              name: "n",
              in: "query",
              required: false,
              schema: { type: "string", enum: ["1"] },
              description: "1 while the visitor's id is new: a new visitor for audiences (docs/audiences.md)",
            },
          ],
          responses: {
            "200": {
              description:
                "The HTML as text/plain (with X-Variant on an experiment, X-Audience for an audience's mapping), or with format=json the snippet's answer (with variant, audience)",
            },
            "204": { description: "No content for this page" },
          },
        },
      },
      "/api/goals": {
        post: {
          summary: "A visitor reached a goal (the snippet's dynamicContent.goal); no key, CORS for any origin",
          security: [],
          requestBody: json(goalBody),
          responses: {
            "202": answer("{message}: counted for the experiments the visitor saw"),
            "200": answer("{message}: not counted, no experiment of the customer measures this goal"),
            ...ERRORS,
          },
        },
      },
    },
  };
}
