import { ChannelSecretStore } from '../../workflows/application/channel-secret-store.js';

/** The table of the workflows' inbound addresses: its own class, so the module binds it apart from other channels' tables. */
export abstract class EmailAddressStore extends ChannelSecretStore {}
