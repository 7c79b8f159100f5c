import { ChannelSecretStore } from '../../workflows/application/channel-secret-store.js';

/** The table of the workflows' form URLs: its own class, so the module binds it apart from other channels' tables. */
export abstract class RequestFormStore extends ChannelSecretStore {}
