import { Link } from "react-router-dom";
import { PageContainer } from "@/components/layout/page-container";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";

interface LinkGroup {
  title: string;
  links: { label: string; to: string }[];
}

const LINK_GROUPS: LinkGroup[] = [
  {
    title: "User",
    links: [
      { label: "Login", to: "/login" },
      { label: "Register", to: "/register" },
    ],
  },
  {
    title: "Admin",
    links: [
      { label: "Admin Dashboard", to: "/admin" },
      { label: "Billing Dashboard", to: "/admin/billing" },
      { label: "Product Versions", to: "/product-versions" },
      { label: "SMTP Configuration", to: "/smtp-config" },
      { label: "Admin Login", to: "/admin-login" },
    ],
  },
];

/** The admin's index of every screen. */
export function IndexPage() {
  return (
    <PageContainer className="max-w-3xl">
      <h1 className="mb-6 text-3xl font-bold">Dynamic Content</h1>
      <div className="grid gap-6 md:grid-cols-2">
        {LINK_GROUPS.map((group) => (
          <Card key={group.title}>
            <CardHeader>
              <CardTitle className="text-xl">{group.title}</CardTitle>
            </CardHeader>
            <CardContent>
              <ul className="space-y-2">
                {group.links.map((link) => (
                  <li key={link.to}>
                    <Link to={link.to} className="text-primary underline-offset-4 hover:underline">
                      {link.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </CardContent>
          </Card>
        ))}
      </div>
    </PageContainer>
  );
}
