import { CreditCard, Mail, Package, Users, type LucideIcon } from "lucide-react";
import { Link } from "react-router-dom";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

interface Tile {
  to: string;
  title: string;
  description: string;
  icon: LucideIcon;
}

const TILES: Tile[] = [
  { to: "/admin/users", title: "User Management", description: "Manage users and monitor usage", icon: Users },
  {
    to: "/admin/billing",
    title: "Billing Dashboard",
    description: "View and manage payment transactions",
    icon: CreditCard,
  },
  {
    to: "/admin/product-versions",
    title: "Product Versions",
    description: "Manage versions and limits",
    icon: Package,
  },
  { to: "/smtp-config", title: "SMTP", description: "The mail server for codes, links and keys", icon: Mail },
];

export function AdminTiles() {
  return (
    <div className="grid gap-4 md:grid-cols-2 lg:grid-cols-4">
      {TILES.map(({ to, title, description, icon: Icon }) => (
        <Link
          key={to}
          to={to}
          className="rounded-lg focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          <Card className="h-full transition-colors hover:bg-muted/50">
            <CardHeader>
              <Icon className="h-8 w-8 text-primary" aria-hidden="true" />
              <CardTitle className="text-xl">{title}</CardTitle>
              <CardDescription>{description}</CardDescription>
            </CardHeader>
          </Card>
        </Link>
      ))}
    </div>
  );
}
