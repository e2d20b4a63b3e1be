import { externalLinks } from "@/lib/external-links";

const FOOTER_LINKS = [
  { label: "Home", href: externalLinks.home },
  { label: "Pricing", href: externalLinks.pricing },
  { label: "FAQs", href: externalLinks.faqs },
  { label: "Privacy Policy", href: externalLinks.privacyPolicy },
  { label: "Terms of Service", href: externalLinks.termsOfService },
  { label: "Contact", href: externalLinks.contact },
];

export function SiteFooter() {
  return (
    <footer className="border-t bg-muted/40">
      <nav
        aria-label="Footer"
        className="container mx-auto flex flex-wrap items-center justify-center gap-x-6 gap-y-2 px-4 py-6 text-sm text-muted-foreground"
      >
        {FOOTER_LINKS.map((link) => (
          <a key={link.label} href={link.href} className="hover:text-foreground hover:underline">
            {link.label}
          </a>
        ))}
      </nav>
    </footer>
  );
}
