import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { format } from "date-fns";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DatePicker } from "./date-picker";

afterEach(() => {
  vi.unstubAllGlobals();
});

function Harness({ initial, onChange }: { initial?: Date; onChange: (date: Date | undefined) => void }) {
  const [value, setValue] = useState<Date | undefined>(initial);
  return (
    <DatePicker
      value={value}
      onChange={(date) => {
        setValue(date);
        onChange(date);
      }}
    />
  );
}

describe("DatePicker", () => {
  it("shows 'Pick a date', picks a single day in the popover and closes it", async () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);

    fireEvent.click(screen.getByRole("button", { name: "Pick a date" }));
    const month = await screen.findByRole("grid");
    const day15 = within(month)
      .getAllByRole("button")
      .find((button) => button.textContent === "15")!;
    fireEvent.click(day15);

    const picked = onChange.mock.calls[0]?.[0] as Date;
    expect(picked).toBeInstanceOf(Date);
    expect(picked.getDate()).toBe(15);
    expect(screen.getByRole("button", { name: format(picked, "PPP") })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("grid")).not.toBeInTheDocument());
  });

  it("shows the chosen date and opens on its month with it selected", async () => {
    render(<Harness initial={new Date(2025, 2, 5)} onChange={vi.fn()} />);

    fireEvent.click(screen.getByRole("button", { name: "March 5th, 2025" }));

    const month = await screen.findByRole("grid", { name: "March 2025" });
    const selected = within(month).getByRole("gridcell", { selected: true });
    expect(selected).toHaveTextContent("5");
  });
});
