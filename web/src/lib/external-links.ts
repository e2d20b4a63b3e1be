/** @module Addresses outside this app: the marketing site that the top bar, footer and forms link to. */
const MARKETING_SITE = "https://dynamic-content.example";

export const externalLinks = {
  home: MARKETING_SITE,
  pricing: `${MARKETING_SITE}/pricing`,
  faqs: `${MARKETING_SITE}/faq`,
  privacyPolicy: `${MARKETING_SITE}/privacy`,
  termsOfService: `${MARKETING_SITE}/terms`,
  contact: `${MARKETING_SITE}/contact`,
} as const;
