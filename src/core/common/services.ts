/**
 * Port numbers of service names. `iptables -L` without `-n` prints ports by name (`tcp dpt:ssh`, looked up in the
 * node's /etc/services), and iptables accepts names in `--dport` too; the tracer needs the numbers. These are the
 * names a Kubernetes node's netbase lists for the ports people filter on (primary names and common aliases).
 */
const SERVICE_PORTS: ReadonlyMap<string, number> = new Map([
  ['ftp-data', 20], ['ftp', 21], ['ssh', 22], ['telnet', 23], ['smtp', 25], ['mail', 25], ['domain', 53],
  ['bootps', 67], ['bootpc', 68], ['tftp', 69], ['http', 80], ['www', 80], ['kerberos', 88], ['pop3', 110],
  ['sunrpc', 111], ['portmapper', 111], ['auth', 113], ['ident', 113], ['ntp', 123], ['netbios-ns', 137],
  ['netbios-dgm', 138], ['netbios-ssn', 139], ['imap2', 143], ['imap', 143], ['snmp', 161], ['snmp-trap', 162],
  ['bgp', 179], ['ldap', 389], ['https', 443], ['microsoft-ds', 445], ['isakmp', 500], ['syslog', 514],
  ['submission', 587], ['ipp', 631], ['ldaps', 636], ['rsync', 873], ['imaps', 993], ['pop3s', 995],
  ['socks', 1080], ['openvpn', 1194], ['ms-sql-s', 1433], ['radius', 1812], ['radius-acct', 1813], ['nfs', 2049],
  ['mysql', 3306], ['ipsec-nat-t', 4500], ['sip', 5060], ['mdns', 5353], ['postgresql', 5432], ['postgres', 5432],
  ['amqp', 5672], ['x11', 6000], ['redis', 6379], ['http-alt', 8080], ['webcache', 8080],
]);

/** The port of a service name (`ssh` -> 22), undefined for a name not listed. */
export function servicePort(name: string): number | undefined {
  return SERVICE_PORTS.get(name.toLowerCase());
}
