// Public: SSRF-safe URL checks, for media links.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/**
 * SSRF guard: webhook targets must be https, without credentials, at most 2,048 characters, on port 443
 * or 1024-65535, and resolve only to public addresses (WEBHOOK_ALLOW_PRIVATE_NETWORKS=true lets
 * development reach loopback and private ranges, never link-local or cloud metadata). Checked at
 * registration and again at every delivery, which then connects to the address that was checked (so DNS
 * rebinding cannot swap it).
 */
export const MAX_URL_LENGTH = 2048;

export const allowPrivate = () => process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS === 'true';

function ipv4ToInt(ip: string): number {
  return ip.split('.').reduce((acc, part) => (acc << 8) + Number(part), 0) >>> 0;
}

const V4_BLOCKS: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

function isPublicV4(ip: string): boolean {
  const value = ipv4ToInt(ip);
  return !V4_BLOCKS.some(([base, bits]) => {
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    return (value & mask) === (ipv4ToInt(base) & mask);
  });
}

/** Expands an IPv6 address into 8 groups. */
function expandV6(ip: string): number[] | null {
  let address =
    ip
      .toLowerCase()
      .replace(/^\[|\]$/g, '')
      .split('%')[0] ?? '';
  // An embedded IPv4 tail (::ffff:1.2.3.4) becomes two groups.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (v4?.[1]) {
    const n = ipv4ToInt(v4[1]);
    address = address.replace(v4[1], `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`);
  }
  const [head, tail] = address.split('::');
  const h = head ? head.split(':') : [];
  const t = tail !== undefined ? (tail ? tail.split(':') : []) : [];
  const groups = tail !== undefined ? [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t] : h;
  if (groups.length !== 8) return null;
  return groups.map((g) => parseInt(g || '0', 16));
}

export function isPublicAddress(ip: string): boolean {
  const family = isIP(ip.replace(/^\[|\]$/g, ''));
  if (family === 4) return isPublicV4(ip);
  if (family !== 6) return false;
  const g = expandV6(ip);
  if (!g) return false;
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g6 = 0, h = 0] = g;
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d): judge the IPv4 address.
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && (f === 0xffff || f === 0)) {
    if (f === 0 && g6 === 0 && h <= 1) return false; // :: and ::1
    return isPublicV4(`${g6 >> 8}.${g6 & 255}.${h >> 8}.${h & 255}`);
  }
  // Only global unicast (2000::/3) is public; within it, refuse the ranges that embed an IPv4 address
  // or are reserved: Teredo and other 2001::/23 assignments, documentation, 6to4. Everything outside
  // it (ULA, link-local, site-local, multicast, NAT64, ::ffff:0:0/96, 100::/64 …) is refused too.
  if ((a & 0xe000) !== 0x2000) return false;
  if (a === 0x2001 && b < 0x0200) return false; // 2001::/23: Teredo, benchmarking, ORCHID …
  if (a === 0x2001 && b === 0x0db8) return false; // documentation
  if (a === 0x2002) return false; // 6to4 (embeds IPv4)
  if (a === 0x3fff && b < 0x1000) return false; // documentation (2024)
  return true;
}

/**
 * Cloud metadata services outside link-local: Alibaba Cloud's (in CGNAT space) and Oracle Cloud's. AWS,
 * Azure and Google Cloud answer at 169.254.169.254, and AWS also at fd00:ec2::254.
 */
const METADATA_V4 = ['100.100.100.200', '192.0.0.192'];

const inV4Block = (ip: string, base: string, bits: number) =>
  ipv4ToInt(ip) >>> (32 - bits) === ipv4ToInt(base) >>> (32 - bits);
const linkLocalOrMetadataV4 = (ip: string) => inV4Block(ip, '169.254.0.0', 16) || METADATA_V4.includes(ip);
const v4Of = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/**
 * Link-local addresses (169.254.0.0/16, fe80::/10) and cloud metadata services, in every form that
 * reaches them (IPv4-mapped and -compatible, NAT64, 6to4): never a webhook target, even where private
 * networks are allowed for development, since they hand out the host's credentials.
 */
export function isLinkLocalOrMetadata(ip: string): boolean {
  const family = isIP(ip.replace(/^\[|\]$/g, ''));
  if (family === 4) return linkLocalOrMetadataV4(ip);
  if (family !== 6) return false;
  const g = expandV6(ip);
  if (!g) return false;
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g6 = 0, h = 0] = g;
  if ((a & 0xffc0) === 0xfe80) return true; // fe80::/10
  if (a === 0xfd00 && b === 0x0ec2 && c === 0 && d === 0 && e === 0 && f === 0 && g6 === 0 && h === 0x254) return true;
  // ::ffff:a.b.c.d, ::a.b.c.d and 64:ff9b::a.b.c.d carry the IPv4 address in the last 32 bits; 2002:AABB:CCDD:: in the second and third group.
  const mappedOrCompatible = a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && (f === 0xffff || f === 0);
  const nat64 = a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0;
  if (mappedOrCompatible || nat64) return linkLocalOrMetadataV4(v4Of(g6, h));
  if (a === 0x2002) return linkLocalOrMetadataV4(v4Of(b, c));
  return false;
}

export class UnsafeTarget extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeTarget';
  }
}

/**
 * Ports: 443 or unprivileged ones. Well-known ports (SSH on 22, SMTP on 25 …) are refused, so attempt
 * logs cannot be used to probe services on other hosts. This holds even with private networks allowed.
 */
export const MIN_HIGH_PORT = 1024;
/** WHATWG URL leaves `port` empty for the scheme's default (443 for https) and refuses ports above 65535. */
const allowedPort = (url: URL) => url.port === '' || Number(url.port) >= MIN_HIGH_PORT;

/**
 * A URL being registered: checkUrlForm, and nothing the URL parser would drop or rewrite (spaces,
 * backslashes, control characters, a fragment), so the address shown is the address called. Stored URLs
 * are checked with checkUrlForm alone, so endpoints registered before this rule still deliver.
 */
export function checkNewUrl(raw: string): URL {
  // eslint-disable-next-line no-control-regex
  if (/[\s\\\u0000-\u001f\u007f]/.test(raw))
    throw new UnsafeTarget('The URL must not contain spaces, backslashes or control characters.');
  if (raw.includes('#')) throw new UnsafeTarget('URLs with a fragment (#…) are not accepted: it is never sent.');
  // What is stored and called is the normalised form (percent-encoded, punycode), which can be longer.
  return checkUrlForm(checkUrlForm(raw).href);
}

/** Checks the URL's form; returns the parsed URL or throws UnsafeTarget. */
export function checkUrlForm(raw: string): URL {
  if (raw.length > MAX_URL_LENGTH) throw new UnsafeTarget(`The URL is longer than ${MAX_URL_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeTarget('The URL is not valid.');
  }
  if (url.protocol !== 'https:') throw new UnsafeTarget('Only https URLs are accepted.');
  if (url.username || url.password) throw new UnsafeTarget('URLs with credentials are not accepted.');
  if (!allowedPort(url))
    throw new UnsafeTarget(
      `Port ${url.port} is not accepted: use 443 (the default) or a port from ${MIN_HIGH_PORT} to 65535.`,
    );
  return url;
}

/** Resolves the host and returns an address to connect to, refusing any non-public answer. */
export async function resolveTarget(url: URL): Promise<{ address: string; family: 4 | 6 }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host);
  const answers = literal
    ? [{ address: host, family: literal as 4 | 6 }]
    : await lookup(host, { all: true, verbatim: true }).catch(() => []);
  if (answers.length === 0) throw new UnsafeTarget(`The host ${host} does not resolve.`);
  if (answers.some((a) => isLinkLocalOrMetadata(a.address)))
    throw new UnsafeTarget(
      `The host ${host} resolves to a link-local or cloud metadata address, which is never a webhook target.`,
    );
  // The message never echoes the resolved address: the API is not a DNS lookup service.
  if (!allowPrivate() && answers.some((a) => !isPublicAddress(a.address))) {
    throw new UnsafeTarget(
      `The host ${host} resolves to a private or reserved address; webhook targets must be public.`,
    );
  }
  const first = answers[0];
  return { address: first?.address ?? host, family: (first?.family ?? 4) as 4 | 6 };
}
