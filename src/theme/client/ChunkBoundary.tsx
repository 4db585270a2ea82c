import { Component, lazy, useState, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';

interface Props {
  retryLabel: string;
  /** Called by Retry: the caller makes a fresh lazy component (a rejected import is cached). */
  onRetry: () => void;
  children: ReactNode;
}
interface State {
  error: Error | null;
}

/** Spec section 8: a lazily loaded chunk that fails shows its message and a 'Retry' button. */
export class ChunkBoundary extends Component<Props, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="chunk-error" role="alert">
        <p className="chunk-error-message">{this.state.error.message}</p>
        <button
          type="button"
          className="button button-secondary"
          onClick={() => {
            this.props.onRetry();
            this.setState({ error: null });
          }}
        >
          {this.props.retryLabel}
        </button>
      </div>
    );
  }
}

type Loader<P> = () => Promise<{ default: ComponentType<P> }>;

/**
 * A lazily loaded component that can be loaded again: React caches a rejected import for the
 * life of a lazy() component, so Retry needs a fresh one.
 */
export function useRetryableLazy<P>(load: Loader<P>): [LazyExoticComponent<ComponentType<P>>, () => void] {
  const [component, setComponent] = useState(() => lazy(load));
  return [component, () => setComponent(() => lazy(load))];
}
