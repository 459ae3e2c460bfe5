package org.leafid.jdbc.stores;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.session.SqlSessionFactory;
import org.leafid.core.segment.SegmentStoreException;
import org.leafid.core.segment.Stripes;
import org.leafid.jdbc.SqlFailures;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The check that the stores a server is configured with are the fleet they recorded
 * ({@link FleetRecord}): as many, in the same order, none listed twice, none a copy of another or a
 * new database in place of one, numbered with the same stripes. Made at start on every store that
 * answers, and on each other store before its first block; a store that fails it is never used.
 */
public final class StoreFleet {

    private static final Logger log = LoggerFactory.getLogger(StoreFleet.class);

    private final List<Member> members;
    /** Every store's token as this server learned it, from the store's own record or the others'. */
    private final Map<Integer, Long> tokens = new ConcurrentHashMap<>();
    private final Map<Integer, Boolean> checked = new ConcurrentHashMap<>();

    /**
     * One configured store.
     *
     * @param where the store's url as messages show it (without password)
     */
    public record Member(SqlSessionFactory sessions, Stripes stripes, String where) {

        String key() {
            return "leaf.jdbc.stores[" + stripes.index() + "].url";
        }
    }

    /** A store that is not the one the fleet recorded at its place: nothing is reserved from it. */
    public static final class MismatchException extends IllegalStateException {

        private final String key;

        MismatchException(String key, String reason) {
            super(reason);
            this.key = key;
        }

        /** The configuration key to look at. */
        public String key() {
            return key;
        }
    }

    public StoreFleet(List<Member> members) {
        this.members = List.copyOf(members);
    }

    /**
     * Checks every store that answers now; one that does not is checked before its first block.
     *
     * @throws MismatchException naming the key of the first store that is not the fleet's
     */
    public void checkAtStart() {
        for (Member member : members) {
            try {
                learnOthers(FleetRecord.read(member.sessions()), member);
            } catch (PersistenceException e) {
                log.warn("Store {} ({}) does not answer at start: {}. It is checked against the fleet's record"
                        + " before its first block", member.key(), member.where(), SqlFailures.describe(e,
                                member.where()));
            }
        }
        for (Member member : members) {
            try {
                checkBeforeFirstBlock(member.stripes().index());
            } catch (MismatchException mismatch) {
                throw mismatch;
            } catch (SegmentStoreException unreachable) {
                log.debug("Store {} not checked at start: {}", member.key(), unreachable.getMessage());
            }
        }
    }

    /**
     * Checks store {@code index} once: its record against the configuration and what the others
     * recorded of it; a store with none, that no other names, joins the fleet.
     *
     * @throws MismatchException when it is not the fleet's store at its place
     * @throws SegmentStoreException when it cannot be read
     */
    public void checkBeforeFirstBlock(int index) {
        if (checked.containsKey(index)) {
            return;
        }
        Member member = members.get(index);
        synchronized (member) {
            if (checked.containsKey(index)) {
                return;
            }
            try {
                FleetRecord.Read record = FleetRecord.read(member.sessions());
                if (record.empty()) {
                    refuseNewInPlaceOfKnown(member);
                    if (!FleetRecord.create(member.sessions(), member.stripes())) {
                        log.debug("Store {} joined the fleet by another server at the same moment", member.key());
                    }
                    record = FleetRecord.read(member.sessions());
                    log.info("Store {} ({}) joined a fleet of {} stores as store {}", member.key(), member.where(),
                            members.size(), index);
                }
                verify(member, record);
                learnOthers(record, member);
                tokens.put(index, record.token());
                for (Map.Entry<Integer, Long> other : tokens.entrySet()) {
                    if (other.getKey() != index && !other.getValue().equals(record.others().get(other.getKey()))) {
                        FleetRecord.recordOther(member.sessions(), other.getKey(), other.getValue());
                    }
                }
                checked.put(index, true);
            } catch (PersistenceException e) {
                throw new SegmentStoreException(null, "the fleet's record in " + member.key() + " could not be read: "
                        + SqlFailures.describe(e, member.where()), e);
            }
        }
    }

    private void refuseNewInPlaceOfKnown(Member member) {
        Long known = tokens.get(member.stripes().index());
        if (known != null) {
            throw new MismatchException(member.key(), member.key() + " (" + member.where() + ") has no record of the fleet, while"
                    + " another store recorded one for store " + member.stripes().index() + ": a new or emptied"
                    + " database in place of that store, which may lack the numbers it gave. Nothing is reserved"
                    + " from it; point the url back at the store, or retire it and add a new one"
                    + " (docs/databases.md, \"Several stores\")");
        }
    }

    private void verify(Member member, FleetRecord.Read record) {
        Stripes stripes = member.stripes();
        if (record.stores() == null || record.stores() != stripes.stores()) {
            throw new MismatchException("leaf.jdbc.stores", "leaf.jdbc.stores lists " + stripes.stores() + " stores, but " + member.key()
                    + " (" + member.where() + ") belongs to a fleet of " + record.stores() + ": list every store of"
                    + " the fleet, in the order they were first listed");
        }
        if (record.index() == null || record.index() != stripes.index()) {
            throw new MismatchException(member.key(), member.key() + " (" + member.where() + ") reaches the database recorded as"
                    + " store " + record.index() + ": the stores are listed in another order, one is listed twice, or"
                    + " it is a copy of store " + record.index() + ". List them in the order they were first listed");
        }
        if (record.width() == null || record.width() != stripes.width() || record.base() == null
                || record.base() != stripes.base()) {
            throw new MismatchException("leaf.jdbc.stripe-width", "leaf.jdbc.stripe-width is " + stripes.width() + " (numbering from "
                    + stripes.base() + "), but " + member.key() + " recorded stripes of " + record.width()
                    + " from " + record.base() + ": every server of the fleet needs the same stripe width");
        }
        Long known = tokens.get(stripes.index());
        if (known != null && !known.equals(record.token())) {
            throw new MismatchException(member.key(), member.key() + " (" + member.where() + ") is not the database the other"
                    + " stores recorded as store " + stripes.index() + " (another token): a new database set up"
                    + " in its place, or a store of another fleet. Nothing is reserved from it");
        }
        for (Map.Entry<Integer, Long> other : tokens.entrySet()) {
            if (other.getKey() != stripes.index() && other.getValue().equals(record.token())) {
                throw new MismatchException(member.key(), member.key() + " and leaf.jdbc.stores[" + other.getKey() + "].url reach"
                        + " the same store, or one is a copy of the other: nothing is reserved from "
                        + member.key());
            }
        }
    }

    /** What a store's record says of the others, taken as known unless a store's own record said otherwise. */
    private void learnOthers(FleetRecord.Read record, Member member) {
        if (record.token() != null && record.index() != null && record.index() == member.stripes().index()) {
            tokens.putIfAbsent(member.stripes().index(), record.token());
        }
        record.others().forEach(tokens::putIfAbsent);
    }
}
