import { html, LitElement, nothing, type PropertyValues } from "lit";
import type { GatewayClient } from "../gateway-client.js";
import { ClientEvents } from "./client-events.js";

interface Question {
  questionId: string;
  header: string;
  question: string;
  options: { label: string; description?: string }[];
  multiSelect?: boolean;
  isOther?: boolean;
}

interface QuestionRecord {
  id: string;
  sessionKey?: string;
  questions: Question[];
  status: string;
}

/** The field that carries a question's own words, beside its options. */
const otherField = (questionId: string) => `${questionId}__other`;

/**
 * The questions waiting for an answer in one session (the agent's `ask_user`), docked above the
 * chat's composer: each question's options (one, or several for a multi-select) and a field for
 * one's own words, then Answer or Skip. Filled from `question.list` when the session or the link
 * changes, then live from `question.requested` / `question.resolved`; answered with
 * `question.resolve`.
 */
export class QuestionPanel extends LitElement {
  static properties = {
    client: { attribute: false },
    sessionKey: {},
    generation: { type: Number },
    pending: { state: true },
    problem: { state: true },
  };
  declare client: GatewayClient | undefined;
  declare sessionKey: string;
  /** Bumped by the app on each hello-ok: the list is read again. */
  declare generation: number;
  declare pending: QuestionRecord[];
  declare problem: string | undefined;
  private readonly events = new ClientEvents((event, payload) => this.onEvent(event, payload as QuestionRecord));

  constructor() {
    super();
    this.sessionKey = "";
    this.generation = 0;
    this.pending = [];
  }

  protected createRenderRoot(): HTMLElement {
    return this;
  }

  disconnectedCallback(): void {
    super.disconnectedCallback();
    this.events.release();
  }

  protected updated(changed: PropertyValues): void {
    if (!this.client?.hello || !(changed.has("client") || changed.has("sessionKey") || changed.has("generation"))) return;
    this.events.follow(this.client);
    void this.load();
  }

  private async load(): Promise<void> {
    // Questions need operator.questions: a connection without it neither lists them nor gets their events.
    if (!this.client?.may("question.list")) return;
    const key = this.sessionKey;
    try {
      const res = await this.client.request<{ questions: QuestionRecord[] }>("question.list", {});
      if (key === this.sessionKey) this.pending = res.questions.filter((q) => q.sessionKey === key);
    } catch (err) {
      this.problem = `question.list failed: ${(err as Error).message}`;
    }
  }

  private onEvent(event: string, payload: QuestionRecord): void {
    if (event === "question.requested" && payload.sessionKey === this.sessionKey) this.pending = [...this.pending.filter((q) => q.id !== payload.id), payload];
    if (event === "question.resolved") this.pending = this.pending.filter((q) => q.id !== payload.id);
  }

  private async answer(event: SubmitEvent, record: QuestionRecord): Promise<void> {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const answers: Record<string, string[]> = {};
    for (const q of record.questions) {
      const own = String(form.get(otherField(q.questionId)) ?? "").trim();
      answers[q.questionId] = [...form.getAll(q.questionId).map(String), ...(own ? [own] : [])];
    }
    const missing = record.questions.filter((q) => answers[q.questionId]!.length === 0);
    if (missing.length > 0) {
      this.problem = `Choose an option or write an answer for: ${missing.map((q) => q.header).join(", ")}.`;
      return;
    }
    await this.resolve({ id: record.id, answers: { answers } });
  }

  private async resolve(params: Record<string, unknown>): Promise<void> {
    try {
      await this.client!.request("question.resolve", params);
      this.pending = this.pending.filter((q) => q.id !== params.id);
      this.problem = undefined;
    } catch (err) {
      this.problem = `Not answered: ${(err as Error).message}`;
    }
  }

  protected render() {
    if (this.pending.length === 0) return nothing;
    return html`${this.pending.map(
      (record) =>
        html`<section class="question-panel" aria-label="Question from the agent" data-testid="question">
          <form @submit=${(e: SubmitEvent) => this.answer(e, record)}>
            ${record.questions.map(
              (q) => html`<fieldset>
                <legend>${q.header}</legend>
                <p>${q.question}</p>
                ${q.options.map(
                  (o) =>
                    html`<label class="option"
                      ><input type=${q.multiSelect ? "checkbox" : "radio"} name=${q.questionId} value=${o.label} /> ${o.label}${
                        o.description ? html` <small>${o.description}</small>` : nothing
                      }</label
                    >`,
                )}
                ${
                  q.options.length === 0
                    ? html`<label class="option">Answer <input type="text" name=${otherField(q.questionId)} placeholder="Your answer" /></label>`
                    : q.isOther
                      ? html`<label class="option">Other <input type="text" name=${otherField(q.questionId)} placeholder="Your own answer" /></label>`
                      : nothing
                }
              </fieldset>`,
            )}
            ${this.problem ? html`<p class="error" role="alert">${this.problem}</p>` : nothing}
            <button type="submit">Answer</button>
            <button type="button" @click=${() => this.resolve({ id: record.id, cancel: true })}>Skip</button>
          </form>
        </section>`,
    )}`;
  }
}

customElements.define("oc-question-panel", QuestionPanel);
