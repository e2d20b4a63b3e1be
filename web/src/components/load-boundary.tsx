/**
 * @module The red note in place of a screen that failed to render, instead of a blank page. Most often a lazily
 * loaded chunk (an admin screen, a dialog) could not be fetched, e.g. after a new deployment replaced it.
 */
import { Component, type ReactNode } from "react";
import { LoadError } from "./loading";

export const SCREEN_FAILED_MESSAGE = "This page could not be loaded. Please reload the page.";

interface LoadBoundaryProps {
  /** When it changes (another path), a failed screen is rendered afresh. */
  resetKey: string;
  children: ReactNode;
}

export class LoadBoundary extends Component<LoadBoundaryProps, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidUpdate(previous: LoadBoundaryProps) {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.setState({ failed: false });
  }

  render() {
    return this.state.failed ? <LoadError>{SCREEN_FAILED_MESSAGE}</LoadError> : this.props.children;
  }
}
