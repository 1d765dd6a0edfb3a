package dev.idempotency.internal.stores.jpa.it.app.rollback;

import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;

/**
 * An entity as users write them, passed to and returned from a guarded method: the server's JPA
 * provider weaves or enhances it as it does by default (EclipseLink on Payara, GlassFish and Liberty;
 * Hibernate on WildFly), with a lazy association and a {@code @Transient} field.
 */
@Entity
@Table(name = "jpa_it_account")
public class LedgerAccount {

    @Id
    private String id;

    private long balance;

    @ManyToOne(fetch = FetchType.LAZY)
    private LedgerAccount parent;

    @Transient
    private String note;

    public LedgerAccount() {}

    public LedgerAccount(String id, long balance) {
        this.id = id;
        this.balance = balance;
    }

    public String getId() {
        return id;
    }

    public void setId(String id) {
        this.id = id;
    }

    public long getBalance() {
        return balance;
    }

    public void setBalance(long balance) {
        this.balance = balance;
    }

    public LedgerAccount getParent() {
        return parent;
    }

    public void setParent(LedgerAccount parent) {
        this.parent = parent;
    }

    public String getNote() {
        return note;
    }

    public void setNote(String note) {
        this.note = note;
    }
}
