/**
 * @module A rule's "no": the data and domain layers refuse what was asked with the status it answers as, without
 * knowing HTTP; http/errors.ts `handleError` answers it in the one error shape.
 */
export class Refusal extends Error {
  constructor(
    /** Invalid (400), not allowed by the plan (403), not there (404), or in conflict with what is stored (409). */
    readonly status: 400 | 403 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}
