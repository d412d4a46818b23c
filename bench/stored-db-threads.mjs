// The threads of the stored-message benchmark's database (bench/stored-db.mjs): each account's
// one-to-one threads and groups, and a chooser that makes a few busy and a long tail quiet.

const DAY = 86_400_000;

/**
 * Plans each account's threads (writing its groups and their members) in a shuffled order, and a
 * chooser per account that picks a thread with a Zipf weight.
 */
export function planThreads({ random, pick, newId, accountIds, threadStart, insertGroup, insertMember, counts }) {
  // Each account's threads, with a weight: a few busy threads, a long tail (Zipf, s = 0.9).
  const threads = { Acme: [], Globex: [] };
  const addThread = (account, thread) => {
    const createdAt = threadStart + Math.floor(random() * 30 * DAY);
    Object.assign(thread, { id: newId(createdAt), createdAt, last: null, inboundAt: null, channel: null });
    threads[account].push(thread);
    counts.conversations++;
  };
  const plan = {
    Acme: {
      oneToOne: 3000,
      groups: 200,
      numbers: ["+14155550101", "+14155550103"],
      whatsapp: ["+14155550102", "+14155550103"],
    },
    Globex: { oneToOne: 400, groups: 20, numbers: ["+14155550111"], whatsapp: [] },
  };
  for (const [account, shape] of Object.entries(plan)) {
    const contact = (i) => `+1628${account === "Acme" ? "5" : "6"}${String(i).padStart(6, "0")}`;
    for (let i = 0; i < shape.oneToOne; i++) {
      const whatsapp = shape.whatsapp.length > 0 && random() < 0.12;
      addThread(account, {
        kind: "direct",
        from: whatsapp ? pick(shape.whatsapp) : pick(shape.numbers),
        remote: contact(i),
        service: whatsapp ? "whatsapp" : "text",
        textChannel: whatsapp ? "whatsapp" : random() < 0.75 ? "imessage" : "sms",
      });
    }
    for (let g = 0; g < shape.groups; g++) {
      const groupCreatedAt = threadStart + Math.floor(random() * 30 * DAY);
      const groupId = newId(groupCreatedAt);
      const kind = random() < 0.85 ? "imessage" : "mms";
      const contacts = Array.from({ length: 2 + Math.floor(random() * 6) }, () =>
        contact(Math.floor(random() * shape.oneToOne)),
      );
      const numbers = shape.numbers.length > 1 && random() < 0.2 ? shape.numbers : [pick(shape.numbers)];
      const members = [...new Set([...numbers, ...contacts])];
      insertGroup(
        groupId,
        accountIds[account],
        kind,
        random() < 0.6 ? `Group ${g}` : null,
        groupCreatedAt,
        groupCreatedAt,
      );
      members.forEach((handle, i) => insertMember(groupId, handle, i + 1, groupCreatedAt));
      counts.groups++;
      const views = numbers.map((number) => ({
        kind: "group",
        groupId,
        from: number,
        contacts: members.filter((h) => !numbers.includes(h)),
        textChannel: kind === "imessage" ? "imessage" : "sms",
      }));
      // An inbound group message is recorded once per member number (spec 4.5): copies.
      for (const view of views) {
        view.copies = views;
        addThread(account, view);
      }
    }
  }
  // Busy and quiet threads of every kind: ranks in a shuffled order.
  for (const list of Object.values(threads)) {
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [list[i], list[j]] = [list[j], list[i]];
    }
  }
  const chooser = (list) => {
    const cumulative = [];
    let total = 0;
    list.forEach((_, i) => cumulative.push((total += 1 / (i + 1) ** 0.9)));
    return () => {
      const x = random() * total;
      let lo = 0;
      let hi = cumulative.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cumulative[mid] < x) lo = mid + 1;
        else hi = mid;
      }
      return list[lo];
    };
  };
  const choose = { Acme: chooser(threads.Acme), Globex: chooser(threads.Globex) };
  return { threads, choose };
}
