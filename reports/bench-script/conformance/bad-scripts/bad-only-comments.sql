-- nothing to run here

   
-- still nothing; not even this
