/*
 * linkdelay: holds every packet of one netfilter queue for a fixed time before letting it through, so that a link
 * between network namespaces has a one-way latency. It stands in for `tc qdisc ... netem delay`, which this machine's
 * kernel lacks (CONFIG_NET_SCH_NETEM is not set); the kernel's NFQUEUE target and nfnetlink_queue are present.
 *
 *   linkdelay QUEUE DELAY_US
 *
 * Run it inside the namespace whose nftables rules send packets to QUEUE. The delay is constant, so packets leave in
 * the order they came (a FIFO is enough); a packet is never dropped by this program. It copies only packet metadata
 * from the kernel, not payloads. It stops on SIGTERM or SIGINT, after accepting every packet it holds.
 */
#include <arpa/inet.h> /* before the kernel headers: glibc's in.h then keeps linux/in.h from redefining it */
#include <errno.h>
#include <linux/netfilter.h>
#include <libnetfilter_queue/libnetfilter_queue.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#define CAP (1u << 20)

static uint32_t ids[CAP];
static uint64_t due[CAP];
static unsigned head, tail;
static uint64_t delay_ns;
static volatile sig_atomic_t stop;
static unsigned long long held, maxdepth;

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static unsigned depth(void) { return (tail - head) & (CAP - 1); }

static int on_packet(struct nfq_q_handle *qh, struct nfgenmsg *msg, struct nfq_data *nfa, void *data) {
  (void)msg;
  (void)data;
  struct nfqnl_msg_packet_hdr *ph = nfq_get_msg_packet_hdr(nfa);
  if (!ph) return 0;
  uint32_t id = ntohl(ph->packet_id);
  if (depth() == CAP - 1) return nfq_set_verdict(qh, id, NF_ACCEPT, 0, NULL); /* full: pass at once rather than drop */
  ids[tail] = id;
  due[tail] = now_ns() + delay_ns;
  tail = (tail + 1) & (CAP - 1);
  held++;
  if (depth() > maxdepth) maxdepth = depth();
  return 0;
}

static void on_signal(int sig) {
  (void)sig;
  stop = 1;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: linkdelay QUEUE DELAY_US\n");
    return 2;
  }
  char *end;
  unsigned long queue = strtoul(argv[1], &end, 10);
  if (*end || queue > 65535) {
    fprintf(stderr, "linkdelay: bad queue number %s\n", argv[1]);
    return 2;
  }
  unsigned long us = strtoul(argv[2], &end, 10);
  if (*end || us > 10000000) {
    fprintf(stderr, "linkdelay: bad delay %s (microseconds, at most 10 s)\n", argv[2]);
    return 2;
  }
  delay_ns = (uint64_t)us * 1000ull;

  struct nfq_handle *h = nfq_open();
  if (!h) {
    perror("linkdelay: nfq_open");
    return 1;
  }
  struct nfq_q_handle *qh = nfq_create_queue(h, (uint16_t)queue, on_packet, NULL);
  if (!qh) {
    perror("linkdelay: nfq_create_queue");
    return 1;
  }
  if (nfq_set_mode(qh, NFQNL_COPY_META, 0) < 0) {
    perror("linkdelay: nfq_set_mode");
    return 1;
  }
  nfq_set_queue_maxlen(qh, CAP / 2);
  int fd = nfq_fd(h);
  nfnl_rcvbufsiz(nfq_nfnlh(h), 16u << 20);

  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);

  char buf[65536] __attribute__((aligned));
  while (!stop) {
    int timeout = -1;
    if (depth()) {
      uint64_t t = now_ns();
      timeout = due[head] <= t ? 0 : (int)((due[head] - t + 999999) / 1000000);
    }
    struct pollfd p = {.fd = fd, .events = POLLIN};
    /* Millisecond poll timeouts are too coarse for sub-millisecond delays: wait at most until the next due packet,
       and spin briefly when it is under a millisecond away. */
    int r = poll(&p, 1, timeout < 0 ? -1 : timeout > 1 ? timeout - 1 : 0);
    if (r < 0 && errno != EINTR) {
      perror("linkdelay: poll");
      break;
    }
    if (r > 0 && (p.revents & POLLIN)) {
      for (;;) {
        ssize_t n = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
        if (n <= 0) break;
        nfq_handle_packet(h, buf, (int)n);
      }
    }
    uint64_t t = now_ns();
    while (depth() && due[head] <= t) {
      nfq_set_verdict(qh, ids[head], NF_ACCEPT, 0, NULL);
      head = (head + 1) & (CAP - 1);
    }
    if (r == 0 && depth() == 0) {
      /* idle */
    } else if (depth() && timeout <= 1) {
      struct timespec ts = {0, 50000}; /* 50 us */
      if (due[head] > t) nanosleep(&ts, NULL);
    }
  }
  while (depth()) {
    nfq_set_verdict(qh, ids[head], NF_ACCEPT, 0, NULL);
    head = (head + 1) & (CAP - 1);
  }
  fprintf(stderr, "linkdelay: queue %lu: %llu packets held %lu us, at most %llu at once\n", queue, held, us, maxdepth);
  nfq_destroy_queue(qh);
  nfq_close(h);
  return 0;
}
