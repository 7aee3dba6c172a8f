import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Debian's openmpi-bin and python3-mpi4py: scripts/test.mjs installs them where it can. */
export const MPI_INSTALLED =
  existsSync('/usr/bin/mpirun') &&
  spawnSync('/usr/bin/python3', ['-c', 'import mpi4py'], { stdio: 'ignore' }).status === 0;

/**
 * Programs for the workers of a distributed job (docs/jobs.md "Distributed jobs") in tests, run
 * by /usr/bin/python3 from the environment variable PROG (`python3 -c "$PROG"`): they find each
 * other only through the environment the runtime gives each worker.
 */

/**
 * Rank 0 listens on MASTER_PORT and hears every other rank, which connects to
 * MASTER_ADDR:MASTER_PORT (retrying until rank 0 listens), says its rank and hears rank 0's. Each
 * prints what it heard, and its uid.
 */
export const RANK_EXCHANGE = `
import os, socket, time
rank, world = int(os.environ['RANK']), int(os.environ['WORLD_SIZE'])
addr, port = os.environ['MASTER_ADDR'], int(os.environ['MASTER_PORT'])
assert os.environ['ORRERY_WORKER_RANK'] == str(rank) and os.environ['NODE_RANK'] == str(rank)
if rank == 0:
    server = socket.create_server((addr, port))
    peers = [server.accept()[0] for _ in range(world - 1)]
    heard = sorted(p.recv(16).decode() for p in peers)
    for p in peers:
        p.sendall(b'0')
        p.close()
    print(f'rank 0 of {world} heard ranks {",".join(heard)} uid {os.getuid()}', flush=True)
else:
    for attempt in range(1200):
        try:
            s = socket.create_connection((addr, port))
            break
        except OSError:
            time.sleep(0.05)
    s.sendall(str(rank).encode())
    print(f'rank {rank} of {world} heard rank {s.recv(16).decode()} uid {os.getuid()}', flush=True)
`;

/**
 * Rank 0 sends rank 1 as much as its connection takes while rank 1 reads nothing, tells rank 1
 * how much on a second connection and exits; rank 1 waits for rank 0's end (the second
 * connection's), only then reads the first to its end, and prints what it got of what was sent.
 * As between two machines, what a worker sent before it exited arrives whole: its network
 * outlives its command while a peer still reads.
 */
export const SENT_BEFORE_EXIT = `
import os, select, socket, time
rank, addr, port = int(os.environ['RANK']), os.environ['MASTER_ADDR'], int(os.environ['MASTER_PORT'])
if rank == 0:
    server = socket.create_server(('', port))
    conns = {}
    for _ in range(2):
        c = server.accept()[0]
        conns[c.recv(1)] = c
    data, told = conns[b'd'], conns[b't']
    data.setblocking(False)
    sent, chunk = 0, b'x' * 65536
    # Until the connection has taken nothing for a second: rank 1 reads nothing yet.
    while select.select([], [data], [], 1)[1]:
        try:
            sent += data.send(chunk)
        except BlockingIOError:
            pass
    told.sendall(f'{sent}\\n'.encode())
    os._exit(0)
def connect(tag):
    for _ in range(1200):
        try:
            c = socket.create_connection((addr, port))
            c.sendall(tag)
            return c
        except OSError:
            time.sleep(0.05)
data = connect(b'd')
told = connect(b't')
reader = told.makefile('rb')
sent = int(reader.readline())
assert reader.read() == b''  # rank 0 has exited
got = 0
while True:
    b = data.recv(1 << 20)
    if not b:
        break
    got += len(b)
print(f'rank 1 got {got} of {sent} bytes', flush=True)
`;

/**
 * RANK_EXCHANGE in busybox's shell, for images without Python (the docker runtime's tests): rank 0
 * serves MASTER_PORT with a shell per connection that reads the asker's rank, answers `0` and
 * then notes the rank; every other rank connects to MASTER_ADDR:MASTER_PORT (retrying until rank 0
 * listens), says its rank and reads the answer to the connection's end. Each prints what it heard.
 * The answer is written before the connection closes, whatever the load: a server nc whose own
 * `echo 0` came after the asker's end once closed without answering, and under load the asker
 * asked again and again.
 */
export const RANK_EXCHANGE_BUSYBOX = `
if [ "$RANK" = 0 ]; then
  until [ -f /tmp/heard ] && [ "$(wc -l < /tmp/heard)" -ge $((WORLD_SIZE - 1)) ]; do
    nc -l -p "$MASTER_PORT" -e sh -c 'read r && echo 0 && echo "$r" >> /tmp/heard'
  done
  echo "rank 0 of $WORLD_SIZE heard rank $(sort -n /tmp/heard | tr '\\n' ' ' | sed 's/ $//')"
else
  until heard=$(echo "$RANK" | nc -w 2 "$MASTER_ADDR" "$MASTER_PORT" 2>/dev/null) && [ -n "$heard" ]; do
    sleep 0.1
  done
  echo "rank $RANK of $WORLD_SIZE heard rank $heard"
fi`;

/** The command that runs a program given in PROG. */
export const RUN_PROG = '/usr/bin/python3 -c "$PROG"';

/**
 * PyTorch DDP with the gloo backend (`env://`: MASTER_ADDR, MASTER_PORT, RANK, WORLD_SIZE): a
 * linear model fitted to y = x·w on each rank's own random batches for 40 steps. Each rank prints
 * its parameters after training (DDP all-reduces the gradients, so they must be the same on every
 * rank) and the loss averaged over the ranks at the first and last step.
 */
export const DDP_TRAINING = `
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel
dist.init_process_group('gloo')
rank, world = dist.get_rank(), dist.get_world_size()
torch.manual_seed(0)
model = torch.nn.Linear(4, 1)
ddp = DistributedDataParallel(model)
opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
data = torch.Generator().manual_seed(100 + rank)
w = torch.tensor([[1.0, -2.0, 3.0, 0.5]])
losses = []
for step in range(40):
    x = torch.randn(16, 4, generator=data)
    loss = torch.nn.functional.mse_loss(ddp(x), x @ w.T)
    opt.zero_grad()
    loss.backward()
    opt.step()
    mean = loss.detach().clone()
    dist.all_reduce(mean)
    losses.append(mean.item() / world)
params = torch.cat([p.detach().flatten() for p in model.parameters()]).tolist()
print(f'rank {rank} of {world} params {" ".join(f"{v:.6f}" for v in params)} loss {losses[0]:.6f} {losses[-1]:.6f}', flush=True)
dist.destroy_process_group()
`;

/**
 * An MPI all-reduce of the ranks (mpi4py): each rank prints its rank, the world's size, its host
 * name (its worker's) and the sum, which is 0 + 1 + … + (size - 1) on every rank.
 */
export const MPI_ALLREDUCE = `
import socket
from mpi4py import MPI
comm = MPI.COMM_WORLD
total = comm.allreduce(comm.Get_rank(), op=MPI.SUM)
print(f'mpi rank {comm.Get_rank()} of {comm.Get_size()} on {socket.gethostname()} sum {total}', flush=True)
`;

/**
 * The MPI recipe of docs/jobs.md "MPI": worker 0 runs plain `mpirun` (the job's environment names
 * the hostfile and the launch agent), the others wait for it with `orrery-worker-exec --wait`.
 */
export const MPI_RUN = `if [ "$RANK" = 0 ]; then mpirun -np "$WORLD_SIZE" /usr/bin/python3 -c "$PROG"; else orrery-worker-exec --wait; fi`;

/** Worker 0 asks the job's launch agent for this machine and for a worker the job lacks. */
export const MPI_REFUSALS =
  'for h in localhost 2; do orrery-worker-exec "$h" true; echo "refused $h $?"; done';

/**
 * What the merged log of MPI_RUN after MPI_REFUSALS in job `id` of two workers holds: each rank's
 * sum, each in its own worker, and the agent's refusals of anything but the job's workers.
 */
export function mpiLines(id: string): string[] {
  const workers = `${id}.w0, ${id}.w1`;
  return [
    `mpi rank 0 of 2 on ${id}.w0 sum 1\n`,
    `mpi rank 1 of 2 on ${id}.w1 sum 1\n`,
    ...['localhost', '2'].flatMap((host) => [
      `orrery-worker-exec: ${host} is not a worker of this job; its workers are ${workers}\n`,
      `refused ${host} 255\n`,
    ]),
  ];
}
