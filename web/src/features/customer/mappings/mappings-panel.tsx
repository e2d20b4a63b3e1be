import { Search } from "lucide-react";
import { useState } from "react";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { AddMappingForm } from "./add-mapping-form";
import { BulkCard } from "./bulk-card";
import { DeletedMappingsCard } from "./deleted-mappings-card";
import { MappingsDataTable } from "./mappings-data-table";
import { IgnoredParametersForm } from "./ignored-parameters-form";
import { UrlTester } from "./url-tester";

/**
 * The URL Mappings tab: the add form, the URL tester and import & export (with a key), the search box and the table,
 * and the recently deleted mappings.
 */
export function MappingsPanel({ hasApiKey }: { hasApiKey: boolean }) {
  const [searchTerm, setSearchTerm] = useState("");

  return (
    <div className="space-y-6">
      {hasApiKey && (
        <Card>
          <CardHeader>
            <CardTitle className="text-xl">Add URL Mapping</CardTitle>
          </CardHeader>
          <CardContent>
            <AddMappingForm />
          </CardContent>
        </Card>
      )}
      {hasApiKey && (
        <Card>
          <CardHeader>
            <CardTitle className="text-xl">Test a URL</CardTitle>
          </CardHeader>
          <CardContent className="space-y-8">
            <UrlTester />
            <IgnoredParametersForm />
          </CardContent>
        </Card>
      )}
      {hasApiKey && <BulkCard />}
      <Card>
        <CardContent className="space-y-4 pt-6">
          <div className="relative max-w-sm">
            <Search className="absolute top-3 left-3 h-4 w-4 text-muted-foreground" aria-hidden="true" />
            <Input
              type="search"
              aria-label="Search mappings"
              placeholder="Search mappings..."
              value={searchTerm}
              onChange={(e) => setSearchTerm(e.target.value)}
              className="pl-9"
            />
          </div>
          <MappingsDataTable searchTerm={searchTerm} hasApiKey={hasApiKey} />
        </CardContent>
      </Card>
      {hasApiKey && <DeletedMappingsCard />}
    </div>
  );
}
