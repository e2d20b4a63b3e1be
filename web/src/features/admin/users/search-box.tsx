import { Search } from "lucide-react";
import { Input } from "@/components/ui/input";

/** The search field of both overview tabs; `placeholder` doubles as its accessible name. */
export function SearchBox({
  value,
  onChange,
  placeholder,
}: {
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
}) {
  return (
    <div className="relative max-w-sm">
      <Search className="absolute top-3 left-3 h-4 w-4 text-muted-foreground" aria-hidden="true" />
      <Input
        type="search"
        aria-label={placeholder}
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="pl-9"
      />
    </div>
  );
}
