import { Component, type ReactNode } from 'react';

interface Props {
  title: string;
  retryLabel: string;
  children: ReactNode;
  resetKey: string;
}
interface State {
  error: Error | null;
}

/** Spec section 8: a render error shows 'This page crashed.' with 'Try again' instead of a blank page. */
export class ErrorBoundary extends Component<Props, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  componentDidUpdate(previous: Props) {
    if (previous.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="error-screen" role="alert">
        <h1>{this.props.title}</h1>
        <p className="error-message">{this.state.error.message}</p>
        <button type="button" className="button button-primary" onClick={() => this.setState({ error: null })}>
          {this.props.retryLabel}
        </button>
      </div>
    );
  }
}
