import { useExternalLinks } from "@/queries/site-config";

/** The brand mark and name, linking to the marketing site's home page when one is configured. */
export function BrandLogo() {
  const home = useExternalLinks()?.home;
  const logo = (
    <>
      <svg viewBox="0 0 32 32" className="h-8 w-8" aria-hidden="true">
        <rect width="32" height="32" rx="8" className="fill-primary" />
        <path
          d="M9 9h6.5a7 7 0 0 1 0 14H9z M13 13v6h2.5a3 3 0 0 0 0-6z"
          fillRule="evenodd"
          className="fill-primary-foreground"
        />
      </svg>
      <span className="text-lg">Dynamic Content</span>
    </>
  );
  const className = "flex items-center gap-2 font-semibold";

  return home ? (
    <a href={home} className={className} aria-label="Dynamic Content home">
      {logo}
    </a>
  ) : (
    <span className={className}>{logo}</span>
  );
}
