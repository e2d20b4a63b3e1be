import { Badge } from "@/components/ui/badge";

export function MappingStatusBadge({ publishedAt }: { publishedAt: string | null }) {
  return publishedAt ? <Badge variant="success">Veröffentlicht</Badge> : <Badge variant="secondary">Entwurf</Badge>;
}
