/** Small ipvsadm outputs written for these tests (not copied from the shared corpus). */

export const LIST = [
  '[root@node1 ~]# ipvsadm -Ln',
  'IP Virtual Server version 1.2.1 (size=4096)',
  'Prot LocalAddress:Port Scheduler Flags',
  '  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn',
  'TCP  10.96.0.1:443 rr',
  '  -> 192.168.10.11:6443           Masq    1      3          12',
  '  -> 192.168.10.12:6443           Masq    1      2          9',
  '  -> 192.168.10.13:6443           Masq    0      1          4',
  'TCP  10.96.100.5:80 sh (sh-fallback,sh-port) persistent 3600 mask 255.255.255.0',
  '  -> 10.244.1.7:8080              Route   2      0          0',
  '  -> 10.244.2.9:8080              Tunnel  1      0          0',
  'UDP  10.96.0.10:53 rr ops',
  '  -> 10.244.0.5:53                Local   1      0          17',
  'TCP  [fd00:10:96::1]:443 wrr persistent 10800 pe sip',
  '  -> [fd00:10:244:1::5]:6443      Masq    3      0          0',
  '  -> [fd00:10:244:2::5]:6443      Masq    1      0          0',
  'FWM  7 IPv6 mh (mh-port)',
  '  -> [fd00:10:244:3::7]:0         Route   1      0          0',
  'SCTP  10.96.7.7:3868 lc',
].join('\n');

export const STATS = [
  'IP Virtual Server version 1.2.1 (size=4096)',
  'Prot LocalAddress:Port               Conns   InPkts  OutPkts  InBytes OutBytes',
  '  -> RemoteAddress:Port',
  'TCP  10.96.0.10:9153                   812   123456   654321      12K       3M',
  '  -> 10.244.0.2:9153                   400    60000   300000     512K       2G',
].join('\n');

export const RATE = [
  '$ ipvsadm -Ln --rate',
  'IP Virtual Server version 1.2.1 (size=4096)',
  'Prot LocalAddress:Port                 CPS    InPPS   OutPPS    InBPS   OutBPS',
  '  -> RemoteAddress:Port',
  'TCP  10.96.0.1:443                       3       40       38     5120     9000',
  '  -> 172.18.0.2:6443                     3       40       38     5120     9000',
].join('\n');

export const THRESHOLDS = [
  '# ipvsadm -Ln --thresholds',
  'Prot LocalAddress:Port            Uthreshold Lthreshold ActiveConn InActConn',
  '  -> RemoteAddress:Port',
  'TCP  10.96.0.1:443 rr',
  '  -> 172.18.0.2:6443              100        50         7          3',
].join('\n');

export const PERSISTENT_CONN = [
  'ipvsadm -Ln --persistent-conn',
  'Prot LocalAddress:Port            Weight    PersistConn ActiveConn InActConn',
  '  -> RemoteAddress:Port',
  'TCP  10.96.0.1:443 rr persistent 10800',
  '  -> 172.18.0.2:6443              1         4           2          1',
].join('\n');

export const EXACT = [
  'root@node:~# ipvsadm -Ln --stats --exact',
  'Prot LocalAddress:Port               Conns   InPkts  OutPkts  InBytes OutBytes',
  '  -> RemoteAddress:Port',
  'TCP  10.96.0.1:443                    5 123456789012 987 4096 123456789',
].join('\n');

export const CONNECTIONS = [
  'user@node:~$ sudo ipvsadm -Lnc',
  'IPVS connection entries',
  'pro expire state       source             virtual            destination',
  'TCP 14:58  ESTABLISHED 10.244.1.3:41234   10.96.0.1:443      172.18.0.2:6443',
  'UDP 04:59  UDP         10.244.1.3:53312   10.96.0.10:53      10.244.0.5:53',
  'TCP 179:59 NONE        10.244.2.8:0       10.96.100.5:0      10.244.1.7:0',
  'TCP 00:01  TIME_WAIT   [fd00::3]:40000    [fd00:10:96::1]:443 [fd00:10:244:1::5]:6443',
].join('\n');

export const TIMEOUT = ['# ipvsadm -L --timeout', 'Timeout (tcp tcpfin udp): 900 120 300'].join('\n');

export const SAVE = [
  '-A -t 10.96.0.1:443 -s rr -p 10800',
  '-a -t 10.96.0.1:443 -r 172.18.0.2:6443 -m -w 1',
  '-a -t 10.96.0.1:443 -r 172.18.0.3:6443 -m -w 0',
  '-A -u 10.96.0.10:53 -s rr',
  '-a -u 10.96.0.10:53 -r 10.244.0.5:53 -m -w 1',
  '-A --sctp-service 10.96.7.7:3868 -s wlc',
  '-A -f 1481 -s sh -b sh-fallback,sh-port',
  '-a -f 1481 -r 10.244.2.11:80 -i -w 1',
  '-A -t [fd00::1]:80',
  '-a -t [fd00::1]:80 -r [fd00::5]',
].join('\n');

/** Restore input that edits and takes out what it added (`-e`, `-E`, `-d`, `-D`, `-C`), as a script might. */
export const SAVE_EDITS = [
  '-A -t 10.96.0.1:443 -s rr',
  '-a -t 10.96.0.1:443 -r 172.18.0.2:6443 -m -w 1',
  '-a -t 10.96.0.1:443 -r 172.18.0.3:6443 -m -w 1',
  '-e -t 10.96.0.1:443 -r 172.18.0.3:6443 -m -w 0',
  '-E -t 10.96.0.1:443 -s wrr',
  '-d -t 10.96.0.1:443 -r 172.18.0.2:6443',
  '-A -u 10.96.0.10:53 -s rr',
  '-a -u 10.96.0.10:53 -r 10.244.0.5:53 -m',
  '-D -u 10.96.0.10:53',
  'ipvsadm -D -t 10.96.0.1:443',
  '-Dt 10.96.0.9:80',
  'ipvsadm -C',
  '-A -f 1481 -s sh',
  '-a -f 1481 -r 10.244.2.11:80 -i',
  '-d -f 1481 -r 10.244.2.11:80',
].join('\n');

/** What people paste: 4-space indentation, a Chinese comment, ragged blanks, an orphan, `...`, a cut last line. */
export const MESSY = [
  '      -> 10.244.9.9:80                Masq    1      0          0   ',
  '    # 下面是 kube-dns 的虚拟服务',
  '    TCP  10.96.0.10:53 rr    ',
  '      -> 10.244.0.2:53                Masq    1      0          0',
  '    ...',
  '    UDP  10.96.0.10:53 rr',
  '      -> 10.244.0.2:53                Masq    1',
].join('\n');
