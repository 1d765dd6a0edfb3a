package dev.idempotency.internal.stores.jpa.it.app.rollback;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An entity returned by a guarded method: a repeat gets it back from the store. */
@Entity
@Table(name = "jpa_it_entry")
public class LedgerEntry {

    @Id
    private String id;

    private String accountId;

    private long cents;

    public LedgerEntry() {}

    public LedgerEntry(String id, String accountId, long cents) {
        this.id = id;
        this.accountId = accountId;
        this.cents = cents;
    }

    public String getId() {
        return id;
    }

    public void setId(String id) {
        this.id = id;
    }

    public String getAccountId() {
        return accountId;
    }

    public void setAccountId(String accountId) {
        this.accountId = accountId;
    }

    public long getCents() {
        return cents;
    }

    public void setCents(long cents) {
        this.cents = cents;
    }
}
