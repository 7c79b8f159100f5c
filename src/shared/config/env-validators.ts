import { Type } from 'class-transformer';
import { IsInt, Min, ValidateBy } from 'class-validator';
import { isIP } from 'node:net';
import { cidrList, isCidr } from './cidr-list.js';

/** A count of something per organization: a whole number, at least 1. */
export function IsCap(): PropertyDecorator {
  return (target, key) => [Type(() => Number), IsInt(), Min(1)].forEach((decorate) => decorate(target, key));
}

/** `10.0.0.0/8, 2001:db8::/32, 192.0.2.7`: addresses, each with an optional prefix length that fits its family. */
export function IsCidrList(): PropertyDecorator {
  return ValidateBy({
    name: 'isCidrList',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && cidrList(value).every(isCidr),
      defaultMessage: () => '$property must be comma-separated IPv4 or IPv6 addresses or CIDRs',
    },
  });
}

/** `192.0.2.53, 127.0.0.1:5353, [2001:db8::53]:53`: what node's `dns.setServers` takes. */
export function IsDnsServerList(): PropertyDecorator {
  const server = /^(?:(?<v4>[0-9.]+)(?::(?<port4>[0-9]{1,5}))?|\[(?<v6p>[0-9a-fA-F:.]+)\]:(?<port6>[0-9]{1,5})|(?<v6>[0-9a-fA-F:.]+))$/;
  const valid = (entry: string) => {
    const groups = server.exec(entry)?.groups;
    if (!groups) return false;
    const port = Number(groups.port4 ?? groups.port6 ?? 53);
    return port >= 1 && port <= 65535 && (groups.v4 ? isIP(groups.v4) === 4 : isIP(groups.v6p ?? groups.v6 ?? '') === 6);
  };
  return ValidateBy({
    name: 'isDnsServerList',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && value.split(',').every((entry) => valid(entry.trim())),
      defaultMessage: () => '$property must be comma-separated IP addresses, each with an optional port',
    },
  });
}
