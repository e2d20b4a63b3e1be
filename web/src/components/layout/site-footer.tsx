import { useExternalLinks } from "@/queries/site-config";

/** The marketing site's pages; no footer when none is configured. */
export function SiteFooter() {
  const links = useExternalLinks();
  if (!links) return null;

  const footerLinks = [
    { label: "Home", href: links.home },
    { label: "Pricing", href: links.pricing },
    { label: "FAQs", href: links.faqs },
    { label: "Privacy Policy", href: links.privacyPolicy },
    { label: "Terms of Service", href: links.termsOfService },
    { label: "Contact", href: links.contact },
  ];

  return (
    <footer className="border-t bg-muted/40">
      <nav
        aria-label="Footer"
        className="container mx-auto flex flex-wrap items-center justify-center gap-x-6 gap-y-2 px-4 py-6 text-sm text-muted-foreground"
      >
        {footerLinks.map((link) => (
          <a key={link.label} href={link.href} className="hover:text-foreground hover:underline">
            {link.label}
          </a>
        ))}
      </nav>
    </footer>
  );
}
