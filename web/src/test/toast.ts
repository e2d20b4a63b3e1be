import { waitFor } from "@testing-library/react";

/** The toast on screen as its title and description. */
export async function findToast() {
  const toast = await waitFor(() => {
    const item = document.querySelector("li[data-state='open']");
    if (!item) throw new Error("no toast");
    return item;
  });
  const [title, description] = Array.from(toast.querySelector(".grid")!.children).map((el) => el.textContent);
  return { title, description };
}
