/** The tag input and the toggle chips: how values are added, kept and removed. */
import { fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { TagInput } from "./tag-input";
import { ToggleChips } from "./toggle-chips";

function Tags({ start = [] as string[] }) {
  const [value, setValue] = useState(start);
  return (
    <>
      <TagInput aria-label="Tags" value={value} onChange={setValue} removeLabel={(v) => `Remove ${v}`} />
      <output>{JSON.stringify(value)}</output>
    </>
  );
}

const shown = () => JSON.parse(screen.getByRole("status").textContent!) as unknown;

describe("TagInput", () => {
  it("makes a chip on Enter, on a comma (a pasted list makes several) and on leaving the field, once each", () => {
    render(<Tags />);
    const input = screen.getByLabelText("Tags");
    fireEvent.change(input, { target: { value: "de" } });
    fireEvent.keyDown(input, { key: "Enter" });
    fireEvent.change(input, { target: { value: "fr, it,de," } });
    fireEvent.change(input, { target: { value: " pt-BR " } });
    fireEvent.blur(input);
    expect(shown()).toEqual(["de", "fr", "it", "pt-BR"]);
    expect(input).toHaveValue("");
  });

  it("removes a chip by its button, and Backspace in the empty field takes the last back to edit", () => {
    render(<Tags start={["a", "b", "c"]} />);
    fireEvent.click(screen.getByRole("button", { name: "Remove b" }));
    expect(shown()).toEqual(["a", "c"]);
    const input = screen.getByLabelText("Tags");
    fireEvent.keyDown(input, { key: "Backspace" });
    expect(shown()).toEqual(["a"]);
    expect(input).toHaveValue("c");
  });
});

function Chips({ single = false }) {
  const [value, setValue] = useState<string[]>([]);
  return (
    <>
      <ToggleChips
        legend="Device"
        options={["mobile", "tablet", "desktop"]}
        labels={{ mobile: "Mobile", tablet: "Tablet", desktop: "Desktop" }}
        value={value}
        onChange={setValue}
        single={single}
      />
      <output>{JSON.stringify(value)}</output>
    </>
  );
}

describe("ToggleChips", () => {
  it("toggles several, kept in the options' order", () => {
    render(<Chips />);
    fireEvent.click(screen.getByRole("button", { name: "Desktop" }));
    fireEvent.click(screen.getByRole("button", { name: "Mobile" }));
    expect(shown()).toEqual(["mobile", "desktop"]);
    expect(screen.getByRole("button", { name: "Mobile" })).toHaveAttribute("aria-pressed", "true");
    fireEvent.click(screen.getByRole("button", { name: "Mobile" }));
    expect(shown()).toEqual(["desktop"]);
    expect(screen.getByRole("group", { name: "Device" })).toBeInTheDocument();
  });

  it("keeps one at most when single, pressing it again clears it", () => {
    render(<Chips single />);
    fireEvent.click(screen.getByRole("button", { name: "Mobile" }));
    fireEvent.click(screen.getByRole("button", { name: "Tablet" }));
    expect(shown()).toEqual(["tablet"]);
    fireEvent.click(screen.getByRole("button", { name: "Tablet" }));
    expect(shown()).toEqual([]);
  });
});
