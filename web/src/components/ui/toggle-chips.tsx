/**
 * @module A choice among a few values shown as chips that toggle (each a button with aria-pressed), in a fieldset
 * whose legend names it: several may be chosen, or with `single` one at most (pressing the chosen one clears it).
 */
import { cn } from "@/lib/utils";

interface ToggleChipsProps<T extends string> {
  legend: string;
  options: readonly T[];
  labels: Record<T, string>;
  value: readonly T[];
  onChange: (value: T[]) => void;
  single?: boolean;
}

function ToggleChips<T extends string>({ legend, options, labels, value, onChange, single }: ToggleChipsProps<T>) {
  function toggle(option: T) {
    if (value.includes(option)) onChange(value.filter((v) => v !== option));
    else onChange(single ? [option] : options.filter((o) => o === option || value.includes(o)));
  }
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm leading-none font-medium">{legend}</legend>
      <div className="flex flex-wrap gap-2">
        {options.map((option) => {
          const on = value.includes(option);
          return (
            <button
              key={option}
              type="button"
              aria-pressed={on}
              onClick={() => toggle(option)}
              className={cn(
                "rounded-full border px-3 py-1 text-xs font-medium transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none",
                on ? "border-primary bg-primary text-primary-foreground" : "border-input bg-background hover:bg-accent",
              )}
            >
              {labels[option]}
            </button>
          );
        })}
      </div>
    </fieldset>
  );
}

export { ToggleChips };
