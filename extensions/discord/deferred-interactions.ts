import { InteractionWebhook, type Client, type MessageCreateOptions } from "discord.js";

/** An interaction's token answers for 15 minutes; after that a reply goes to the channel as a plain message. */
const INTERACTION_TOKEN_MS = 15 * 60_000;

interface DeferredInteraction {
  applicationId: string;
  token: string;
  createdTimestamp: number;
  /** The deferred answer was edited into the reply: later replies follow up. */
  answered: boolean;
}

/** What answering an interaction needs: it identifies itself and carries the token its answers use. */
type AnswerableInteraction = { id: string; applicationId: string; token: string; createdTimestamp: number };

/**
 * Interactions (slash commands, command buttons) deferred and waiting for their answer, per
 * account, by interaction id (the inbound message id). Kept by the plugin, not by one run of an
 * account: a config reload that
 * restarts the account while a command's answer is being written leaves the answer to the new
 * run, which answers in the interaction all the same — the token needs no gateway session and
 * answers for 15 minutes. Only the application id and the token are kept, never a run's client.
 */
export class DeferredInteractions {
  readonly #byAccount = new Map<string, Map<string, DeferredInteraction>>();

  /** Records a deferred interaction; forgets the account's interactions whose token has expired. */
  add(accountId: string, interaction: AnswerableInteraction): void {
    let pending = this.#byAccount.get(accountId);
    if (!pending) this.#byAccount.set(accountId, (pending = new Map()));
    for (const [id, old] of pending) if (expired(old)) pending.delete(id);
    pending.set(interaction.id, { applicationId: interaction.applicationId, token: interaction.token, createdTimestamp: interaction.createdTimestamp, answered: false });
  }

  /** Whether a reply to `interactionId` can still be answered in its interaction. */
  has(accountId: string, interactionId: string): boolean {
    const deferred = this.#byAccount.get(accountId)?.get(interactionId);
    return deferred !== undefined && !expired(deferred);
  }

  /**
   * Answers the interaction through `client` (any run of the account): the first reply edits the
   * deferred answer ("… is thinking"), later ones follow up. Resolves with the message id.
   */
  async answer(client: Client, accountId: string, interactionId: string, options: Pick<MessageCreateOptions, "content" | "allowedMentions">): Promise<string> {
    const deferred = this.#byAccount.get(accountId)?.get(interactionId);
    if (!deferred) throw new Error(`discord: no deferred interaction ${interactionId}`);
    // The webhook calls authenticate with the token in their path: a client not READY yet can make them.
    const webhook = new InteractionWebhook(client as Client<true>, deferred.applicationId, deferred.token);
    const message = deferred.answered ? await webhook.send(options) : await webhook.editMessage("@original", options);
    deferred.answered = true;
    return message.id;
  }
}

function expired(deferred: DeferredInteraction): boolean {
  return Date.now() - deferred.createdTimestamp >= INTERACTION_TOKEN_MS;
}
